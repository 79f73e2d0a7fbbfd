import type { WorkflowGraph } from "../model/workflow.js";
import { DEFAULT_PORT } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import { computeDominators, type DominatorTree } from "./dominators.js";
import { edgesInto, edgesOutOf, type GraphIndex } from "./graph-index.js";

/**
 * A graph numbered for the structural rules and the planner: nodes 0..n-1 in node order, data edges as
 * index lists (in edge creation order), and the dominator tree of the data graph. Each router port
 * with edges becomes a pseudo-node between the router and its targets, so the tree also tells which
 * port of which router a node lies behind (STATE_WRITE_CONFLICT uses that); dominance among real nodes
 * is the same as in the plain graph. A virtual root feeds every node without a data pre-node.
 */
export interface GraphAnalysis {
  readonly index: GraphIndex;
  readonly ids: readonly string[];
  readonly position: ReadonlyMap<string, number>;
  readonly preds: readonly (readonly number[])[];
  readonly succs: readonly (readonly number[])[];
  /** Computed on first use: only loops and state conflicts need it. */
  readonly dominators: DominatorTree;
  /** For a pseudo-node (index ≥ ids.length, below the root): its router's index and port. */
  readonly portOf: ReadonlyMap<number, { router: number; port: string }>;
}

export function analyzeGraph(graph: WorkflowGraph, index: GraphIndex, registry: NodeTypeRegistry): GraphAnalysis {
  const ids = graph.nodes.map((node) => node.id);
  const position = new Map(ids.map((id, k) => [id, k]));
  const preds: number[][] = ids.map((id) => edgesInto(index, id).map((edge) => position.get(edge.source)!));
  const succs: number[][] = ids.map((id) => edgesOutOf(index, id).map((edge) => position.get(edge.target)!));
  let dominators: DominatorTree | null = null;
  const portOf = new Map<number, { router: number; port: string }>();
  const analysis: GraphAnalysis = {
    index,
    ids,
    position,
    preds,
    succs,
    portOf,
    get dominators() {
      dominators ??= portSplitDominators(graph, index, registry, position, preds, succs, portOf);
      return dominators;
    },
  };
  return analysis;
}

function portSplitDominators(
  graph: WorkflowGraph,
  index: GraphIndex,
  registry: NodeTypeRegistry,
  position: ReadonlyMap<string, number>,
  preds: readonly (readonly number[])[],
  succs: readonly (readonly number[])[],
  portOf: Map<number, { router: number; port: string }>,
): DominatorTree {
  const count = graph.nodes.length;
  const augmentedSucc: number[][] = graph.nodes.map(() => []);
  const augmentedPred: number[][] = graph.nodes.map(() => []);
  graph.nodes.forEach((node, source) => {
    if (registry.get(node.type)?.router === undefined) {
      for (const target of succs[source]!) link(augmentedSucc, augmentedPred, source, target);
      return;
    }
    const pseudo = new Map<string, number>();
    for (const edge of edgesOutOf(index, node.id)) {
      const target = position.get(edge.target)!;
      const port = edge.sourcePort ?? DEFAULT_PORT;
      let via = pseudo.get(port);
      if (via === undefined) {
        via = augmentedSucc.length;
        augmentedSucc.push([]);
        augmentedPred.push([]);
        pseudo.set(port, via);
        portOf.set(via, { router: source, port });
        link(augmentedSucc, augmentedPred, source, via);
      }
      link(augmentedSucc, augmentedPred, via, target);
    }
  });
  const root = augmentedSucc.length;
  augmentedSucc.push([]);
  augmentedPred.push([]);
  for (let node = 0; node < count; node += 1) if (preds[node]!.length === 0) link(augmentedSucc, augmentedPred, root, node);
  return computeDominators(root + 1, augmentedSucc, augmentedPred, root);
}

/** Whether the data edges hold a cycle (self-loops aside, they have their own rule): Kahn on indices, O(V+E). */
export function hasCycle(analysis: GraphAnalysis): boolean {
  const { preds, succs } = analysis;
  const size = preds.length;
  const remaining = new Int32Array(size);
  const queue = new Int32Array(size);
  let tail = 0;
  for (let node = 0; node < size; node += 1) {
    let count = 0;
    for (const pred of preds[node]!) if (pred !== node) count += 1;
    remaining[node] = count;
    if (count === 0) queue[tail++] = node;
  }
  for (let head = 0; head < tail; head += 1) {
    const node = queue[head]!;
    for (const next of succs[node]!) {
      if (next === node) continue;
      remaining[next]! -= 1;
      if (remaining[next] === 0) queue[tail++] = next;
    }
  }
  return tail < size;
}

function link(succ: number[][], pred: number[][], from: number, to: number): void {
  succ[from]!.push(to);
  pred[to]!.push(from);
}

/** Whether `from` reaches `to` by data edges (breadth-first, O(V+E)). */
export function reaches(analysis: GraphAnalysis, from: number, to: number): boolean {
  if (from === to) return true;
  const seen = new Uint8Array(analysis.ids.length);
  const queue = [from];
  seen[from] = 1;
  for (let head = 0; head < queue.length; head += 1) {
    for (const next of analysis.succs[queue[head]!]!) {
      if (next === to) return true;
      if (seen[next] === 0) {
        seen[next] = 1;
        queue.push(next);
      }
    }
  }
  return false;
}
