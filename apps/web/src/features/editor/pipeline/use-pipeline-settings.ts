"use client";

import type { LoopDeclaration, StateChannel, WorkflowLimits } from "@weft/engine";
import { useCallback, useRef, useState } from "react";
import { useMutation } from "urql";
import type { UserErrorFieldsFragment } from "@/gql/graphql";
import { EditorUpdatePipelineSettingsMutation } from "../api/editor.operations";
import { useTracked, type MutationTracker } from "../graph/use-workflow-sync";
import { stateChannelInputs, toPipelineSettings, type PipelineSettings } from "./pipeline-settings";

export type SettingsOutcome = { ok: true } | { ok: false; errors: readonly UserErrorFieldsFragment[]; transport?: string };

/**
 * The workflow's loops, state channels and limits as saved; each save replaces one of them as a whole
 * and keeps what the server answered. `current()` is read by the rule checks at call time.
 */
export function usePipelineSettings(workflowId: string, initial: PipelineSettings, track: MutationTracker) {
  const [settings, setSettings] = useState(initial);
  const latest = useRef(initial);
  latest.current = settings;
  const update = useTracked(useMutation(EditorUpdatePipelineSettingsMutation)[1], track);

  const save = useCallback(
    async (input: { loops?: LoopDeclaration[]; state?: Record<string, StateChannel>; limits?: WorkflowLimits }): Promise<SettingsOutcome> => {
      const result = await update({
        id: workflowId,
        input: {
          ...(input.loops ? { loops: input.loops.map((loop) => ({ id: loop.id, max: loop.max ?? null, exit: loop.exit })) } : {}),
          ...(input.state ? { state: stateChannelInputs(input.state).map(({ name, reducer, key, scope }) => ({ name, reducer, key, scope })) } : {}),
          // The limits are saved together (one left out is cleared): every one is sent.
          ...(input.limits ? { limits: { maxInvocations: input.limits.maxInvocations ?? null, maxCostUsd: input.limits.maxCostUsd ?? null } } : {}),
        },
      });
      const payload = result.data?.updateWorkflow;
      if (result.error) return { ok: false, errors: [], transport: result.error.message };
      if (!payload || payload.errors.length > 0) return { ok: false, errors: payload?.errors ?? [] };
      if (payload.workflow) {
        const next = toPipelineSettings(payload.workflow);
        latest.current = next;
        setSettings(next);
      }
      return { ok: true };
    },
    [update, workflowId],
  );

  /** Settings the server answered to another edit (a loop declared with its first edge). */
  const adopt = useCallback((next: PipelineSettings) => {
    latest.current = next;
    setSettings(next);
  }, []);

  const current = useCallback(() => latest.current, []);
  return { settings, current, save, adopt };
}
