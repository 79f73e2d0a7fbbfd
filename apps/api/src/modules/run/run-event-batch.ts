import type { RunEventMessage } from "../../pubsub.js";
import type { ColumnValue, Columns, EventWrites, HumanTaskInsert, NodeRunKey } from "./run-event-record.js";

/**
 * Several consecutive events of one run folded into the writes of ONE statement: every event row, one
 * upsert per node run touched (a node run is one invocation of a node), one update of the run. Column values are applied in seq order, as
 * separate updates would apply them: a later value replaces an earlier one, increments add up, and an
 * increment after a value adds to that value. (One statement cannot update the same row twice.)
 */
export interface BatchWrites {
  runId: string;
  /**
   * The attempt of the run these events belong to (its claim, run-claim.ts): the write is refused when a
   * later attempt has claimed the run. Null: any attempt (writers that own the run outright).
   */
  attempt: number | null;
  messages: RunEventMessage[];
  /** Keyed by nodeRunId(key); values in the order the batch first touched them. */
  nodeRuns: Map<string, NodeRunKey & { set: Columns }>;
  run: Columns;
  /** Tasks opened by the batch's NODE_WAITING events (SPEC-V3 §2). */
  tasks: HumanTaskInsert[];
  /** The batch ends the run: its open tasks are cancelled. */
  closesTasks: boolean;
}

export function mergeWrites(batch: readonly EventWrites[], attempt: number | null = null): BatchWrites {
  const first = batch[0];
  if (!first) throw new Error("an event batch needs at least one event");
  const merged: BatchWrites = { runId: first.message.runId, attempt, messages: [], nodeRuns: new Map(), run: {}, tasks: [], closesTasks: false };
  for (const writes of batch) {
    if (writes.message.runId !== merged.runId) throw new Error("an event batch holds the events of one run");
    merged.messages.push(writes.message);
    if (writes.nodeRun) {
      const { set, ...key } = writes.nodeRun;
      const id = nodeRunId(key);
      const earlier = merged.nodeRuns.get(id);
      // The row is inserted with the type of its first event (NODE_STARTED names it: an agent's call is a
      // "tool" run of the agent's node), not of a later one that reads the node's type from the graph.
      merged.nodeRuns.set(id, { ...key, nodeType: earlier?.nodeType ?? key.nodeType, set: mergeColumns(earlier?.set ?? {}, set) });
    }
    merged.run = mergeColumns(merged.run, writes.run);
    if (writes.task) merged.tasks.push(writes.task);
    if (writes.closesTasks) merged.closesTasks = true;
  }
  return merged;
}

/** One node run's identity within a run: the node and its invocation path. */
export function nodeRunId(key: Pick<NodeRunKey, "nodeKey" | "invocation">): string {
  return `${key.nodeKey}\u0000${key.invocation}`;
}

function mergeColumns(earlier: Columns, later: Columns): Columns {
  const result: Columns = { ...earlier };
  for (const [column, value] of Object.entries(later)) result[column] = mergeValue(result[column], value);
  return result;
}

function mergeValue(earlier: ColumnValue | undefined, later: ColumnValue): ColumnValue {
  if (!isIncrement(later) || earlier === undefined) return later;
  if (isIncrement(earlier)) return { increment: earlier.increment + later.increment };
  if (typeof earlier === "number") return earlier + later.increment;
  throw new Error(`cannot add ${later.increment} to a non-numeric column value`);
}

function isIncrement(value: ColumnValue | undefined): value is { increment: number } {
  return typeof value === "object" && value !== null && "increment" in value;
}
