"use client";

import type { LoopDeclaration } from "@weft/engine";
import { useCallback, useState } from "react";
import type { ConnectPlan, ConnectResult } from "../graph/use-graph-edits";
import type { ConnectionPlan, LoopPlan } from "../rules/connection-check";
import type { PipelineSettings } from "./pipeline-settings";

interface LoopConnectOptions {
  connect: (plan: ConnectPlan) => Promise<ConnectResult>;
  /** Takes the workflow's settings as the server answered the edge that declared a loop. */
  adopt: (settings: PipelineSettings) => void;
}

/**
 * A released connection becomes an edge at once, or a loop edge: of a loop already declared at once,
 * of a new loop once its declaration is confirmed (id, bound, exit), declared by the edge itself in one
 * mutation (addEdge's declareLoop), so the loop and its first edge are stored together or not at all.
 * A refused declaration keeps the dialog open (the refusal is shown) so it can be corrected.
 */
export function useLoopConnect({ connect, adopt }: LoopConnectOptions) {
  const [pending, setPending] = useState<LoopPlan | null>(null);
  const [busy, setBusy] = useState(false);

  const request = useCallback(
    (plan: ConnectionPlan) => {
      if (plan.kind === "loop" && !plan.declared) return setPending(plan);
      void connect(plan.kind === "loop" ? { ...plan, loop: plan.loop } : plan);
    },
    [connect],
  );

  const confirm = useCallback(
    async (loop: LoopDeclaration) => {
      if (!pending) return;
      setBusy(true);
      const result = await connect({ source: pending.source, target: pending.target, sourcePort: pending.sourcePort, loop: loop.id, declareLoop: loop });
      setBusy(false);
      if (!result.added) return;
      if (result.settings) adopt(result.settings);
      setPending(null);
    },
    [adopt, connect, pending],
  );

  return { pending, busy, request, confirm, cancel: () => setPending(null) };
}
