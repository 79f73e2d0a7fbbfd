/**
 * The weft.workflow/v2 events folded into the live view (SPEC-V2 §8): branches taken, loop iterations,
 * map progress and cache answers. Pure, beside run-projection.ts, which hands over what it does not know.
 */

import { withNode, type LiveEvent, type RunLiveState } from "./live-state";

export function applyPipelineEvent(state: RunLiveState, event: LiveEvent): RunLiveState {
  const fields = event.pipeline;
  const nodeId = event.nodeId;
  if (!fields) return state;
  switch (event.type) {
    case "BRANCH_TAKEN":
      return nodeId ? withNode(state, nodeId, (node) => ({ ...node, branch: { ports: fields.ports ?? [], skipped: fields.skipped ?? [] } })) : state;
    case "LOOP_ITERATION":
      if (!fields.loopId) return state;
      return { ...state, loops: { ...state.loops, [fields.loopId]: { iteration: fields.iteration ?? 1, max: fields.max, feedback: fields.feedback, seq: event.seq } } };
    case "MAP_STARTED":
      return nodeId ? withNode(state, nodeId, (node) => ({ ...node, map: { items: fields.items ?? 0, done: 0 } })) : state;
    case "MAP_ITEM_COMPLETED":
      return nodeId ? withNode(state, nodeId, (node) => ({ ...node, map: node.map ? { ...node.map, done: node.map.done + 1 } : { items: 0, done: 1 } })) : state;
    case "CACHE_HIT":
      return nodeId ? withNode(state, nodeId, (node) => ({ ...node, cache: { hit: true, similarity: fields.similarity } })) : state;
    case "CACHE_MISS":
      return nodeId ? withNode(state, nodeId, (node) => ({ ...node, cache: { hit: false, similarity: null } })) : state;
    default:
      return state;
  }
}

/** The innermost loop an invocation path is in, with its iteration: "regen#2" → regen, 2. */
export function loopOfInvocation(invocation: string): { loopId: string; iteration: number } | null {
  const segments = invocation.split("/");
  for (let i = segments.length - 1; i >= 0; i -= 1) {
    const match = /^(.+)#(\d+)$/.exec(segments[i] ?? "");
    if (match) return { loopId: match[1]!, iteration: Number(match[2]) };
  }
  return null;
}

/** What a node's card shows during and after a run: `2/3` in a loop, `7/12 items` of a map, a cache hit. */
export function nodeBadges(state: RunLiveState, nodeId: string, labels: { items: (done: number, total: number) => string; cacheHit: (similarity: number | null) => string }): string[] {
  const node = state.nodes[nodeId];
  if (!node) return [];
  const badges: string[] = [];
  const loop = loopOfInvocation(node.invocation);
  if (loop) {
    const max = state.loops[loop.loopId]?.max;
    badges.push(max ? `${loop.iteration}/${max}` : `#${loop.iteration}`);
  }
  if (node.map) badges.push(labels.items(node.map.done, node.map.items));
  if (node.cache?.hit) badges.push(labels.cacheHit(node.cache.similarity));
  return badges;
}

/** The loops each node heads: the loop ids of the loop edges that go back to it (SPEC-V2 §4). */
export function loopsByHeader(edges: Iterable<{ target: string; loop?: string | null | undefined }>): Map<string, string[]> {
  const headed = new Map<string, string[]>();
  for (const edge of edges) {
    if (!edge.loop) continue;
    const loops = headed.get(edge.target) ?? [];
    if (!loops.includes(edge.loop)) headed.set(edge.target, [...loops, edge.loop]);
  }
  return headed;
}

/**
 * The grader's reason that started the latest iteration of the loops a header heads (`{feedback}`), for
 * its card; null before a second iteration, or when that iteration started without a reason.
 */
export function headerFeedback(state: RunLiveState, loopIds: readonly string[]): string | null {
  let latest: RunLiveState["loops"][string] | undefined;
  for (const loopId of loopIds) {
    const loop = state.loops[loopId];
    if (loop && (!latest || loop.seq > latest.seq)) latest = loop;
  }
  return latest?.feedback ? latest.feedback : null;
}

/** An edge in a run: taken (its router chose its port), dead (the router chose another, or its source was skipped), or neither yet. */
export function edgeRunState(state: RunLiveState, edge: { source: string; sourcePort?: string | null }): "taken" | "dead" | null {
  const source = state.nodes[edge.source];
  if (!source) return null;
  if (source.status === "SKIPPED") return "dead";
  const port = edge.sourcePort ?? "out";
  if (source.branch?.skipped.includes(port)) return "dead";
  if (source.branch?.ports.includes(port)) return "taken";
  return null;
}
