"use client";

import type { LoopDeclaration } from "@weft/engine";
import { useCallback, useState } from "react";
import { useT } from "../../../i18n/i18n-provider";
import { useReportOutcome } from "../../../ui/user-errors";
import type { ConnectionPlan, LoopPlan } from "../rules/connection-check";
import type { PipelineSettings } from "./pipeline-settings";
import type { SettingsOutcome } from "./use-pipeline-settings";

interface LoopConnectOptions {
  connect: (plan: { source: string; target: string; sourcePort: string; loop?: string }) => Promise<void>;
  saveLoops: (input: { loops: LoopDeclaration[] }) => Promise<SettingsOutcome>;
  currentSettings: () => PipelineSettings;
}

/**
 * A released connection becomes an edge at once, or a loop edge: of a loop already declared at once,
 * of a new loop after its declaration is confirmed (id, bound, exit), saved first so the edge names it.
 */
export function useLoopConnect({ connect, saveLoops, currentSettings }: LoopConnectOptions) {
  const t = useT();
  const report = useReportOutcome();
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
      const outcome = await saveLoops({ loops: [...currentSettings().loops, loop] });
      setBusy(false);
      if (!outcome.ok) {
        report(t("pipeline.loop.refused"), { errors: outcome.errors.length > 0 ? outcome.errors : [{ code: "NETWORK", message: outcome.transport ?? "" }] });
        return;
      }
      setPending(null);
      await connect({ source: pending.source, target: pending.target, sourcePort: pending.sourcePort, loop: loop.id });
    },
    [connect, currentSettings, pending, report, saveLoops, t],
  );

  return { pending, busy, request, confirm, cancel: () => setPending(null) };
}
