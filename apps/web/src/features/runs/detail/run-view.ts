/**
 * What the run page draws, merged from the two sources it has: the persisted node runs (complete, but
 * refetched only as nodes settle) and the live events (immediate). Live state wins where both exist.
 */
import type { NodeLiveState } from "../live/run-projection";
import type { AnyStatus } from "../status/status-badge";
import type { TimelineRow } from "../timeline/run-timeline";
import type { SnapshotGraph } from "./run-snapshot";

export interface NodeRecordTimes {
  status: AnyStatus;
  startedAt?: string | null;
  finishedAt?: string | null;
}

export interface RunView {
  statuses: Record<string, AnyStatus>;
  rows: TimelineRow[];
  /** The node whose details to show: the user's choice, else a failed node, else a running one. */
  focus: string | null;
}

export function buildRunView(
  graph: SnapshotGraph,
  live: Readonly<Record<string, NodeLiveState>>,
  records: ReadonlyMap<string, NodeRecordTimes>,
  selected: string | null,
): RunView {
  const statuses: Record<string, AnyStatus> = {};
  for (const node of graph.nodes) statuses[node.id] = live[node.id]?.status ?? records.get(node.id)?.status ?? "PENDING";
  const rows = orderByStart(
    graph.nodes.map((node) => ({
      id: node.id,
      type: node.type,
      status: statuses[node.id] ?? "PENDING",
      startedAt: records.get(node.id)?.startedAt ?? live[node.id]?.startedAt ?? null,
      finishedAt: records.get(node.id)?.finishedAt ?? live[node.id]?.finishedAt ?? null,
    })),
  );
  const focus =
    (selected && statuses[selected] ? selected : null) ??
    graph.nodes.find((n) => statuses[n.id] === "FAILED")?.id ??
    graph.nodes.find((n) => statuses[n.id] === "RUNNING")?.id ??
    null;
  return { statuses, rows, focus };
}

/** The timeline reads top to bottom in the order nodes started; nodes that never started go last. */
function orderByStart(rows: TimelineRow[]): TimelineRow[] {
  const key = (row: TimelineRow) => (row.startedAt ? Date.parse(row.startedAt) : Number.POSITIVE_INFINITY);
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => key(a.row) - key(b.row) || a.i - b.i)
    .map(({ row }) => row);
}
