import { isJsonObject, STATE_REDUCERS, STATE_SCOPES, type LoopDeclaration, type StateChannel, type Workflow, type WorkflowLimits } from "@weft/engine";
import { Prisma, type Workflow as WorkflowRow } from "../../generated/prisma/client.js";
import type { LoopDeclarationObject, StateChannelObject, WorkflowLimitsObject } from "./workflow-settings.type.js";

/**
 * The weft.workflow/v2 settings (loops, state channels, limits) between their JSON columns, the engine's
 * Workflow and GraphQL. Absent, empty and NULL mean the same: none (a v1 workflow), so a workflow that
 * declares nothing still exports as v1. Columns hold what the API checked when it wrote them.
 */
export type PipelineSettings = Pick<Workflow, "loops" | "state" | "limits">;

export function settingsFromRow(row: Pick<WorkflowRow, "loops" | "state" | "limits">): PipelineSettings {
  const settings: PipelineSettings = {};
  const loops = loopsFromJson(row.loops);
  if (loops.length > 0) settings.loops = loops;
  const state = stateFromJson(row.state);
  if (Object.keys(state).length > 0) settings.state = state;
  const limits = limitsFromJson(row.limits);
  if (limits.maxInvocations !== undefined || limits.maxCostUsd !== undefined) settings.limits = limits;
  return settings;
}

type JsonColumn = Prisma.InputJsonValue | typeof Prisma.DbNull;

/** Column values for settings being written: NULL for none. */
export function settingsColumns(settings: PipelineSettings): { loops: JsonColumn; state: JsonColumn; limits: JsonColumn } {
  const loops = settings.loops?.map((loop) => ({ id: loop.id, ...(loop.max === undefined ? {} : { max: loop.max }), exit: loop.exit }));
  const state = settings.state && Object.keys(settings.state).length > 0 ? settings.state : undefined;
  const limits = settings.limits ? limitsOf(settings.limits) : {};
  return {
    loops: loops && loops.length > 0 ? loops : Prisma.DbNull,
    state: state ? (state as unknown as Prisma.InputJsonObject) : Prisma.DbNull,
    limits: Object.keys(limits).length > 0 ? (limits as Prisma.InputJsonObject) : Prisma.DbNull,
  };
}

export function toSettingsObjects(settings: PipelineSettings): {
  loops: LoopDeclarationObject[];
  state: StateChannelObject[];
  limits: WorkflowLimitsObject;
} {
  return {
    loops: (settings.loops ?? []).map((loop) => ({ id: loop.id, max: loop.max ?? null, exit: loop.exit })),
    state: Object.entries(settings.state ?? {}).map(([name, channel]) => ({
      name,
      reducer: channel.reducer,
      key: channel.key ?? null,
      scope: channel.scope ?? "run",
    })),
    limits: { maxInvocations: settings.limits?.maxInvocations ?? null, maxCostUsd: settings.limits?.maxCostUsd ?? null },
  };
}

function loopsFromJson(json: Prisma.JsonValue): LoopDeclaration[] {
  if (!Array.isArray(json)) return [];
  return json.flatMap((item) => {
    if (!isJsonObject(item) || typeof item["id"] !== "string") return [];
    const loop: LoopDeclaration = { id: item["id"], exit: typeof item["exit"] === "string" ? item["exit"] : null };
    if (typeof item["max"] === "number") loop.max = item["max"];
    return [loop];
  });
}

function stateFromJson(json: Prisma.JsonValue): Record<string, StateChannel> {
  const state: Record<string, StateChannel> = {};
  if (!isJsonObject(json)) return state;
  for (const [name, value] of Object.entries(json)) {
    if (!isJsonObject(value) || !isOneOf(STATE_REDUCERS, value["reducer"])) continue;
    const channel: StateChannel = { reducer: value["reducer"] };
    if (typeof value["key"] === "string") channel.key = value["key"];
    if (isOneOf(STATE_SCOPES, value["scope"])) channel.scope = value["scope"];
    state[name] = channel;
  }
  return state;
}

function limitsFromJson(json: Prisma.JsonValue): WorkflowLimits {
  if (!isJsonObject(json)) return {};
  const { maxInvocations, maxCostUsd } = json;
  return limitsOf({ ...(typeof maxInvocations === "number" ? { maxInvocations } : {}), ...(typeof maxCostUsd === "number" ? { maxCostUsd } : {}) });
}

/** The limits that are set, and only those. */
function limitsOf(limits: WorkflowLimits): WorkflowLimits {
  return {
    ...(limits.maxInvocations === undefined ? {} : { maxInvocations: limits.maxInvocations }),
    ...(limits.maxCostUsd === undefined ? {} : { maxCostUsd: limits.maxCostUsd }),
  };
}

function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === "string" && (values as readonly string[]).includes(value);
}
