/**
 * What the run page draws, merged from the two sources it has: the persisted node runs (complete, but
 * refetched only as nodes settle; one per node and invocation — a loop's iterations, a map's items) and
 * the live events (immediate). Live state wins where both exist.
 */
import { isToolCallInvocation } from "../live/agent-trace";
import { parseRowKey, rowKey } from "../live/row-key";
import type { NodeLiveState } from "../live/run-projection";
import type { AnyStatus } from "../status/status-badge";
import type { TimelineRow } from "../timeline/run-timeline";
import type { SnapshotGraph } from "./run-snapshot";

export interface NodeRecordTimes {
  nodeId: string;
  /** "" at top level; "regen#2", "perQuestion[1]", … */
  invocation: string;
  status: AnyStatus;
  startedAt?: string | null;
  finishedAt?: string | null;
}

export interface RunView {
  statuses: Record<string, AnyStatus>;
  rows: TimelineRow[];
  /** The timeline row whose details to show: the user's choice, else a failed node, else a running one. */
  focus: string | null;
}


export function buildRunView(
  graph: SnapshotGraph,
  live: Readonly<Record<string, NodeLiveState>>,
  records: readonly NodeRecordTimes[],
  selected: string | null,
  /** Agents' tool calls live, by row id (RunLiveState.calls). */
  calls: Readonly<Record<string, NodeLiveState>> = {},
): RunView {
  const byNode = new Map<string, NodeRecordTimes[]>();
  for (const record of records) byNode.set(record.nodeId, [...(byNode.get(record.nodeId) ?? []), record]);
  const statuses: Record<string, AnyStatus> = {};
  const rows: TimelineRow[] = [];
  for (const node of graph.nodes) {
    const own = byNode.get(node.id) ?? [];
    const latest = own[own.length - 1];
    const current = live[node.id];
    statuses[node.id] = current?.status ?? latest?.status ?? "PENDING";
    const invocations = new Set(own.map((record) => record.invocation));
    for (const record of own) {
      // The live state describes the invocation under way; a stored record of it may lag behind.
      const call = calls[rowKey(node.id, record.invocation)];
      const liveOne = call ?? (current !== undefined && current.invocation === record.invocation ? current : undefined);
      rows.push(row(node.id, isToolCallInvocation(record.invocation) ? "tool" : node.type, record.invocation, liveOne?.status ?? record.status, record.startedAt ?? liveOne?.startedAt, record.finishedAt ?? liveOne?.finishedAt));
    }
    if (current && !invocations.has(current.invocation)) rows.push(row(node.id, node.type, current.invocation, current.status, current.startedAt, current.finishedAt));
    for (const [key, call] of Object.entries(calls)) {
      const { nodeId, invocation } = parseRowKey(key);
      if (nodeId === node.id && !invocations.has(invocation)) rows.push(row(node.id, "tool", invocation, call.status, call.startedAt, call.finishedAt));
    }
    if (!current && own.length === 0) rows.push(row(node.id, node.type, "", "PENDING", null, null));
  }
  const ordered = orderByStart(rows);
  const keys = new Set(ordered.map((r) => r.id));
  const focus =
    (selected && keys.has(selected) ? selected : null) ??
    (selected && statuses[parseRowKey(selected).nodeId] ? latestRowOf(ordered, parseRowKey(selected).nodeId) : null) ??
    ordered.find((r) => r.status === "FAILED")?.id ??
    ordered.find((r) => r.status === "RUNNING")?.id ??
    null;
  return { statuses, rows: ordered, focus };
}

function row(nodeId: string, type: string, invocation: string, status: AnyStatus, startedAt: string | null | undefined, finishedAt: string | null | undefined): TimelineRow {
  return { id: rowKey(nodeId, invocation), nodeId, invocation, type, status, startedAt: startedAt ?? null, finishedAt: finishedAt ?? null };
}

/** A node chosen on the graph: its latest execution's row (an agent's own, not one of its tool calls). */
export function latestRowOf(rows: readonly TimelineRow[], nodeId: string): string | null {
  // An agent's card stands for the agent, not for the last tool call it made.
  const own = rows.filter((r) => r.nodeId === nodeId && !isToolCallInvocation(r.invocation));
  return [...own].reverse().find((r) => r.startedAt)?.id ?? own[0]?.id ?? null;
}

/** The timeline reads top to bottom in the order nodes started; nodes that never started go last. */
function orderByStart(rows: TimelineRow[]): TimelineRow[] {
  const key = (row: TimelineRow) => (row.startedAt ? Date.parse(row.startedAt) : Number.POSITIVE_INFINITY);
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => key(a.row) - key(b.row) || a.i - b.i)
    .map(({ row }) => row);
}
