"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { Violation, WorkflowGraph } from "@weft/engine";
import { explainConnection } from "./connection-check";
import type { ConnectionAttempt } from "./connection-check";

export interface ConnectionRules {
  /** For xyflow's `isValidConnection`: stable for the component's life, as xyflow recommends. */
  isValidConnection(connection: ConnectionAttempt): boolean;
  /** Why the connection under the pointer is refused; null while it is allowed (or nothing is hovered). */
  refusal: Violation | null;
  /** Returns the last refusal and forgets it (when the drag ends). */
  takeRefusal(): Violation | null;
}

/**
 * Checks a connection while the user drags it, with the engine's pure rules. `getGraph` reads the
 * canvas at call time, so the callback never changes identity and xyflow never re-subscribes.
 */
export function useConnectionRules(getGraph: () => WorkflowGraph, locked: boolean): ConnectionRules {
  const getGraphRef = useRef(getGraph);
  const lockedRef = useRef(locked);
  const lastRef = useRef<Violation | null>(null);
  const [refusal, setRefusal] = useState<Violation | null>(null);

  useEffect(() => {
    getGraphRef.current = getGraph;
    lockedRef.current = locked;
  }, [getGraph, locked]);

  const isValidConnection = useCallback((connection: ConnectionAttempt) => {
    const violation = explainConnection(getGraphRef.current(), connection, { locked: lockedRef.current });
    if (lastRef.current?.message !== violation?.message) {
      lastRef.current = violation;
      setRefusal(violation);
    }
    return violation === null;
  }, []);

  const takeRefusal = useCallback(() => {
    const last = lastRef.current;
    lastRef.current = null;
    setRefusal(null);
    return last;
  }, []);

  return { isValidConnection, refusal, takeRefusal };
}
