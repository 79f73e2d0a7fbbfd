import type { LoopDeclaration, StateChannel, WorkflowLimits } from "@weft/engine";
import type { EditorPipelineSettingsFragment } from "@/gql/graphql";

/** A state channel as the API lists it (the document keys channels by name). */
export type StateChannelEntry = EditorPipelineSettingsFragment["state"][number];

/** The workflow's weft.workflow/v2 settings in the engine's shape, for the rule checks. */
export interface PipelineSettings {
  loops: LoopDeclaration[];
  state: Record<string, StateChannel>;
  limits: WorkflowLimits;
}

export function toPipelineSettings(api: EditorPipelineSettingsFragment): PipelineSettings {
  const state: Record<string, StateChannel> = {};
  for (const channel of api.state) {
    state[channel.name] = { reducer: channel.reducer, ...(channel.key ? { key: channel.key } : {}), ...(channel.scope !== "run" ? { scope: channel.scope } : {}) };
  }
  return {
    loops: api.loops.map((loop) => ({ id: loop.id, exit: loop.exit ?? null, ...(loop.max != null ? { max: loop.max } : {}) })),
    state,
    limits: {
      ...(api.limits.maxInvocations != null ? { maxInvocations: api.limits.maxInvocations } : {}),
      ...(api.limits.maxCostUsd != null ? { maxCostUsd: api.limits.maxCostUsd } : {}),
    },
  };
}

/** Back to the API's lists, in the same order. */
export function stateChannelInputs(state: Record<string, StateChannel>): StateChannelEntry[] {
  return Object.entries(state).map(([name, channel]) => ({ name, reducer: channel.reducer, key: channel.key ?? null, scope: channel.scope ?? "run" }));
}
