"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { Violation } from "@weft/engine";
import { checkConnection, type ConnectionAttempt, type ConnectionPlan, type LoopPlan } from "./connection-check";
import type { ValidatedGraph } from "./edit-registry";

export interface ConnectionRules {
  /** For xyflow's `isValidConnection`: stable for the component's life, as xyflow recommends. */
  isValidConnection(connection: ConnectionAttempt): boolean;
  /** What a released connection becomes: a data edge or a loop edge; null when the rules refuse it. */
  planFor(connection: ConnectionAttempt): ConnectionPlan | null;
  /** Why the connection under the pointer is refused; null while it is allowed (or nothing is hovered). */
  refusal: Violation | null;
  /** While a connection that would close a loop is dragged over its target: the loop it would close. */
  loopHint: LoopPlan | null;
  /** Returns the last refusal and forgets it (when the drag ends). */
  takeRefusal(): Violation | null;
}

/**
 * Checks a connection while the user drags it, with the engine's pure rules. `getGraph` reads the
 * canvas at call time, so the callback never changes identity and xyflow never re-subscribes.
 */
export function useConnectionRules(getGraph: () => ValidatedGraph, locked: boolean): ConnectionRules {
  const getGraphRef = useRef(getGraph);
  const lockedRef = useRef(locked);
  const lastRef = useRef<Violation | null>(null);
  const [refusal, setRefusal] = useState<Violation | null>(null);
  const [loopHint, setLoopHint] = useState<LoopPlan | null>(null);

  useEffect(() => {
    getGraphRef.current = getGraph;
    lockedRef.current = locked;
  }, [getGraph, locked]);

  const planFor = useCallback((connection: ConnectionAttempt) => {
    const result = checkConnection(getGraphRef.current(), connection, { locked: lockedRef.current });
    return result.ok ? result.plan : null;
  }, []);

  const isValidConnection = useCallback((connection: ConnectionAttempt) => {
    const result = checkConnection(getGraphRef.current(), connection, { locked: lockedRef.current });
    const violation = result.ok ? null : result.violation;
    if (lastRef.current?.message !== violation?.message) {
      lastRef.current = violation;
      setRefusal(violation);
    }
    const loop = result.ok && result.plan.kind === "loop" ? result.plan : null;
    setLoopHint((current) => (current?.loop === loop?.loop && current?.target === loop?.target ? current : loop));
    return result.ok;
  }, []);

  const takeRefusal = useCallback(() => {
    const last = lastRef.current;
    lastRef.current = null;
    setRefusal(null);
    setLoopHint(null);
    return last;
  }, []);

  return { isValidConnection, planFor, refusal, loopHint, takeRefusal };
}
