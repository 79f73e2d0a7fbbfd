import type { WorkflowGraph } from "../model/workflow.js";
import { DEFAULT_PORT } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { NodeTypeDefinition } from "../registry/node-type-definition.js";
import { computeDominators, type DominatorTree } from "./dominators.js";
import { compressedRows, type GraphIndex } from "./graph-index.js";

/**
 * A graph numbered for the structural rules and the planner: nodes 0..n-1 in node order with their
 * specs, data edges as node numbers in compressed rows (the pre-nodes of node k are
 * `predNode[inStart[k] .. inStart[k + 1])`, its post-nodes `succNode[outStart[k] .. outStart[k + 1])`, in
 * edge creation order), and the dominator tree of the data graph. Each port with edges of a router
 * whose edges leave by several ports becomes a pseudo-node between the router and its targets, so the tree also tells which port of which router
 * a node lies behind (STATE_WRITE_CONFLICT uses that); dominance among real nodes is the same as in
 * the plain graph. A virtual root feeds every node without a data pre-node.
 */
export interface GraphAnalysis {
  readonly index: GraphIndex;
  readonly ids: readonly string[];
  readonly position: ReadonlyMap<string, number>;
  /** Per node: its type's spec, or undefined for an unknown type. */
  readonly specs: readonly (NodeTypeDefinition | undefined)[];
  readonly inStart: Int32Array;
  readonly predNode: Int32Array;
  readonly outStart: Int32Array;
  readonly succNode: Int32Array;
  /** Computed on first use: only loops and state conflicts need it. */
  readonly dominators: DominatorTree;
  /** For a pseudo-node (index ≥ ids.length, below the root): its router's index and port. */
  readonly portOf: ReadonlyMap<number, { router: number; port: string }>;
}

export function analyzeGraph(graph: WorkflowGraph, index: GraphIndex, registry: NodeTypeRegistry): GraphAnalysis {
  const specs = graph.nodes.map((node) => registry.get(node.type));
  const predNode = gather(index.inEdge, index.edgeSource);
  const succNode = gather(index.outEdge, index.edgeTarget);
  let dominators: DominatorTree | null = null;
  const portOf = new Map<number, { router: number; port: string }>();
  const analysis: GraphAnalysis = {
    index,
    ids: index.ids,
    position: index.position,
    specs,
    inStart: index.inStart,
    predNode,
    outStart: index.outStart,
    succNode,
    portOf,
    get dominators() {
      dominators ??= portSplitDominators(analysis, portOf);
      return dominators;
    },
  };
  return analysis;
}

/**
 * The augmented graph as (from, to) pairs in the order the rows should keep: per node, its data edges
 * (a router's through one pseudo-node per port, made on the port's first edge), then the root's.
 */
function portSplitDominators(analysis: GraphAnalysis, portOf: Map<number, { router: number; port: string }>): DominatorTree {
  const { index, specs, outStart, inStart } = analysis;
  const count = specs.length;
  const capacity = 2 * index.outEdge.length + count;
  const from = new Int32Array(capacity);
  const to = new Int32Array(capacity);
  let pairs = 0;
  let size = count;
  for (let source = 0; source < count; source += 1) {
    const pseudo = specs[source]?.router !== undefined && portsDiffer(index, outStart[source]!, outStart[source + 1]!) ? new Map<string, number>() : null;
    for (let slot = outStart[source]!; slot < outStart[source + 1]!; slot += 1) {
      const e = index.outEdge[slot]!;
      if (!pseudo) {
        from[pairs] = source;
        to[pairs++] = index.edgeTarget[e]!;
        continue;
      }
      const port = index.edgeList[e]!.sourcePort ?? DEFAULT_PORT;
      let via = pseudo.get(port);
      if (via === undefined) {
        via = size++;
        pseudo.set(port, via);
        portOf.set(via, { router: source, port });
        from[pairs] = source;
        to[pairs++] = via;
      }
      from[pairs] = via;
      to[pairs++] = index.edgeTarget[e]!;
    }
  }
  const root = size++;
  for (let node = 0; node < count; node += 1) {
    if (inStart[node] !== inStart[node + 1]) continue;
    from[pairs] = root;
    to[pairs++] = node;
  }
  const succ = pairRows(size, from.subarray(0, pairs), to.subarray(0, pairs));
  const pred = pairRows(size, to.subarray(0, pairs), from.subarray(0, pairs));
  return computeDominators(size, succ, pred, root);
}

/**
 * Whether a router's data edges leave it by more than one port. Behind a single port the pseudo-node
 * would change nothing: dominance among real nodes is the same either way, and two nodes behind one
 * port are never told apart by it (STATE_WRITE_CONFLICT needs two ports).
 */
function portsDiffer(index: GraphIndex, from: number, to: number): boolean {
  if (to - from < 2) return false;
  const first = index.edgeList[index.outEdge[from]!]!.sourcePort ?? DEFAULT_PORT;
  for (let slot = from + 1; slot < to; slot += 1) if ((index.edgeList[index.outEdge[slot]!]!.sourcePort ?? DEFAULT_PORT) !== first) return true;
  return false;
}

/** Neighbours by node in compressed rows: `list[start[k] .. start[k + 1])` are the `other` ends of the pairs keyed k. */
function pairRows(size: number, key: Int32Array, other: Int32Array): { start: Int32Array; list: Int32Array } {
  const rows = compressedRows(size, key, null);
  return { start: rows.start, list: gather(rows.list, other) };
}

/** `values[k]` for each k of `keys`. */
function gather(keys: Int32Array, values: Int32Array): Int32Array {
  const result = new Int32Array(keys.length);
  for (let at = 0; at < keys.length; at += 1) result[at] = values[keys[at]!]!;
  return result;
}

/** Whether the data edges hold a cycle (self-loops aside, they have their own rule): Kahn on indices, O(V+E). */
export function hasCycle(analysis: GraphAnalysis): boolean {
  const { inStart, predNode, outStart, succNode } = analysis;
  const size = analysis.ids.length;
  const remaining = new Int32Array(size);
  const queue = new Int32Array(size);
  let tail = 0;
  for (let node = 0; node < size; node += 1) {
    let count = 0;
    for (let slot = inStart[node]!; slot < inStart[node + 1]!; slot += 1) if (predNode[slot] !== node) count += 1;
    remaining[node] = count;
    if (count === 0) queue[tail++] = node;
  }
  for (let head = 0; head < tail; head += 1) {
    const node = queue[head]!;
    for (let slot = outStart[node]!; slot < outStart[node + 1]!; slot += 1) {
      const next = succNode[slot]!;
      if (next === node) continue;
      remaining[next]! -= 1;
      if (remaining[next] === 0) queue[tail++] = next;
    }
  }
  return tail < size;
}

/** Whether `from` reaches `to` by data edges (breadth-first, O(V+E)). */
export function reaches(analysis: GraphAnalysis, from: number, to: number): boolean {
  if (from === to) return true;
  const { outStart, succNode } = analysis;
  const seen = new Uint8Array(analysis.ids.length);
  const queue = new Int32Array(analysis.ids.length);
  let tail = 0;
  queue[tail++] = from;
  seen[from] = 1;
  for (let head = 0; head < tail; head += 1) {
    const node = queue[head]!;
    for (let slot = outStart[node]!; slot < outStart[node + 1]!; slot += 1) {
      const next = succNode[slot]!;
      if (next === to) return true;
      if (seen[next] === 0) {
        seen[next] = 1;
        queue[tail++] = next;
      }
    }
  }
  return false;
}
