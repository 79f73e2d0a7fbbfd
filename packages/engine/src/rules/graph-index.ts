import { WeftError } from "../model/errors.js";
import type { WorkflowEdge, WorkflowGraph, WorkflowNode } from "../model/workflow.js";

/**
 * A graph numbered once in O(V+E) and shared by every rule: node k is `graph.nodes[k]`, edge e is
 * `graph.edges[e]`, and adjacency is held in compressed rows (`outEdge[outStart[k] .. outStart[k + 1])`
 * are the edge numbers leaving node k, in creation order), so the rules walk integers and allocate
 * nothing per node. `out*` and `in*` hold data edges only; loop edges (SPEC-V2 §4) are kept apart in
 * `loopEdges`: they are not data edges, so degrees and CYCLE ignore them. `allOut*` holds every edge
 * by source (ports and duplicates count loop edges too). The string-keyed maps (`nodes`, `incoming`,
 * `outgoing`) are built on first use only; the rules read one node's edges with `edgesInto`/`edgesOutOf`.
 */
export interface GraphIndex {
  readonly nodeList: readonly WorkflowNode[];
  readonly edgeList: readonly WorkflowEdge[];
  readonly ids: readonly string[];
  readonly position: ReadonlyMap<string, number>;
  readonly edgeSource: Int32Array;
  readonly edgeTarget: Int32Array;
  readonly outStart: Int32Array;
  readonly outEdge: Int32Array;
  readonly inStart: Int32Array;
  readonly inEdge: Int32Array;
  readonly allOutStart: Int32Array;
  readonly allOutEdge: Int32Array;
  readonly loopEdges: readonly WorkflowEdge[];
  /** Edge numbers of `loopEdges`, in the same order. */
  readonly loopEdgeNumbers: readonly number[];
  readonly nodes: ReadonlyMap<string, WorkflowNode>;
  readonly incoming: ReadonlyMap<string, readonly WorkflowEdge[]>;
  readonly outgoing: ReadonlyMap<string, readonly WorkflowEdge[]>;
}

const NO_EDGES: readonly WorkflowEdge[] = Object.freeze([]);

/**
 * Rules assume a well-formed graph: unique node ids and edges between existing nodes. The document
 * parser and the database both guarantee it, so a break here is a bug in the caller, not user input.
 */
export function indexGraph(graph: WorkflowGraph): GraphIndex {
  const nodeList = graph.nodes;
  const edgeList = graph.edges;
  const ids = nodeList.map((node) => node.id);
  const position = new Map<string, number>();
  for (let k = 0; k < ids.length; k += 1) {
    position.set(ids[k]!, k);
    if (position.size === k) throw malformed(`node id "${ids[k]}" is used twice`);
  }
  const edgeSource = new Int32Array(edgeList.length);
  const edgeTarget = new Int32Array(edgeList.length);
  const isLoop = new Uint8Array(edgeList.length);
  const loopEdges: WorkflowEdge[] = [];
  const loopEdgeNumbers: number[] = [];
  for (let e = 0; e < edgeList.length; e += 1) {
    const edge = edgeList[e]!;
    const source = position.get(edge.source);
    const target = position.get(edge.target);
    if (source === undefined) throw malformed(`edge "${edge.id}" starts at missing node "${edge.source}"`);
    if (target === undefined) throw malformed(`edge "${edge.id}" ends at missing node "${edge.target}"`);
    edgeSource[e] = source;
    edgeTarget[e] = target;
    if (edge.loop === undefined) continue;
    isLoop[e] = 1;
    loopEdges.push(edge);
    loopEdgeNumbers.push(e);
  }
  const dataOut = compressedRows(ids.length, edgeSource, isLoop);
  const dataIn = compressedRows(ids.length, edgeTarget, isLoop);
  const allOut = compressedRows(ids.length, edgeSource, null);
  let views: StringViews | null = null;
  const stringViews = () => (views ??= buildStringViews(nodeList, edgeList, ids, dataOut, dataIn));
  return {
    nodeList,
    edgeList,
    ids,
    position,
    edgeSource,
    edgeTarget,
    outStart: dataOut.start,
    outEdge: dataOut.list,
    inStart: dataIn.start,
    inEdge: dataIn.list,
    allOutStart: allOut.start,
    allOutEdge: allOut.list,
    loopEdges,
    loopEdgeNumbers,
    get nodes() {
      return stringViews().nodes;
    },
    get incoming() {
      return stringViews().incoming;
    },
    get outgoing() {
      return stringViews().outgoing;
    },
  };
}

/** The node with this id, or undefined. */
export function nodeById(index: GraphIndex, id: string): WorkflowNode | undefined {
  const k = index.position.get(id);
  return k === undefined ? undefined : index.nodeList[k];
}

/** The data edges into a node, in creation order (read from its row: O(degree)). */
export function edgesInto(index: GraphIndex, nodeId: string): readonly WorkflowEdge[] {
  const k = index.position.get(nodeId);
  return k === undefined ? NO_EDGES : rowEdges(index, index.inStart, index.inEdge, k);
}

/** The data edges out of a node, in creation order (read from its row: O(degree)). */
export function edgesOutOf(index: GraphIndex, nodeId: string): readonly WorkflowEdge[] {
  const k = index.position.get(nodeId);
  return k === undefined ? NO_EDGES : rowEdges(index, index.outStart, index.outEdge, k);
}

function rowEdges(index: GraphIndex, start: Int32Array, list: Int32Array, k: number): WorkflowEdge[] {
  const edges: WorkflowEdge[] = [];
  for (let slot = start[k]!; slot < start[k + 1]!; slot += 1) edges.push(index.edgeList[list[slot]!]!);
  return edges;
}

interface Rows {
  start: Int32Array;
  list: Int32Array;
}

/** Edge numbers grouped by `keyOf[e]` (a counting sort, so each row keeps creation order); `skip[e]` leaves an edge out. */
export function compressedRows(size: number, keyOf: Int32Array, skip: Uint8Array | null): Rows {
  const start = new Int32Array(size + 1);
  for (let e = 0; e < keyOf.length; e += 1) if (!skip || skip[e] === 0) start[keyOf[e]! + 1]! += 1;
  for (let k = 0; k < size; k += 1) start[k + 1]! += start[k]!;
  const fill = start.slice(0, size);
  const list = new Int32Array(start[size]!);
  for (let e = 0; e < keyOf.length; e += 1) if (!skip || skip[e] === 0) list[fill[keyOf[e]!]!++] = e;
  return { start, list };
}

interface StringViews {
  nodes: Map<string, WorkflowNode>;
  incoming: Map<string, WorkflowEdge[]>;
  outgoing: Map<string, WorkflowEdge[]>;
}

function buildStringViews(nodeList: readonly WorkflowNode[], edgeList: readonly WorkflowEdge[], ids: readonly string[], dataOut: Rows, dataIn: Rows): StringViews {
  const nodes = new Map<string, WorkflowNode>();
  const incoming = new Map<string, WorkflowEdge[]>();
  const outgoing = new Map<string, WorkflowEdge[]>();
  const row = (rows: Rows, k: number) => Array.from(rows.list.subarray(rows.start[k]!, rows.start[k + 1]!), (e) => edgeList[e]!);
  ids.forEach((id, k) => {
    nodes.set(id, nodeList[k]!);
    incoming.set(id, row(dataIn, k));
    outgoing.set(id, row(dataOut, k));
  });
  return { nodes, incoming, outgoing };
}

function malformed(message: string): WeftError {
  return new WeftError("MALFORMED_GRAPH", message, { audience: "internal" });
}
