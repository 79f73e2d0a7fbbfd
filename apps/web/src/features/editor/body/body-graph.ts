import { DEFAULT_PORT, isJsonObject, type JsonValue, type WorkflowEdge, type WorkflowGraph, type WorkflowNode } from "@weft/engine";
import { EDIT_REGISTRY } from "../rules/edit-registry";

/**
 * A map's or subgraph's body (its config's `body`: an inline graph, written as a document writes nodes,
 * their own fields flat beside id and type) as the body editor edits it: read leniently into the
 * engine's shape (those fields in `config`), changed locally, written back whole in the document's shape.
 */

/** What a node carries besides its type's own fields (the rest of a document node is its config). */
const NODE_ATTRIBUTES: ReadonlySet<string> = new Set(["id", "type", "content", "provider", "model", "params", "prompt", "position"]);

function fromDocumentNode(raw: Record<string, JsonValue>): WorkflowNode {
  const node: Record<string, unknown> = {};
  const config: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (NODE_ATTRIBUTES.has(key)) node[key] = value;
    else config[key] = value;
  }
  return { ...(node as unknown as WorkflowNode), ...(Object.keys(config).length > 0 ? { config } : {}) };
}

function toDocumentNode(node: WorkflowNode): Record<string, JsonValue> {
  const { config, ...attributes } = node;
  return { ...(attributes as unknown as Record<string, JsonValue>), ...(config ?? {}) };
}

const isNode = (value: unknown): value is WorkflowNode => isJsonObject(value as JsonValue) && typeof (value as { id?: unknown }).id === "string" && typeof (value as { type?: unknown }).type === "string";
const isEdge = (value: unknown): value is WorkflowEdge =>
  isJsonObject(value as JsonValue) && typeof (value as { source?: unknown }).source === "string" && typeof (value as { target?: unknown }).target === "string";

/** The body held in a node's config; an empty graph when it has none yet. Edges without an id get one. */
export function readBody(config: Readonly<Record<string, JsonValue>> | undefined): WorkflowGraph {
  const body = config?.["body"];
  if (!isJsonObject(body ?? null)) return { nodes: [], edges: [] };
  const raw = body as { nodes?: unknown; edges?: unknown; loops?: unknown };
  const nodes = Array.isArray(raw.nodes) ? raw.nodes.filter(isNode).map((node) => fromDocumentNode(node as unknown as Record<string, JsonValue>)) : [];
  const edges = (Array.isArray(raw.edges) ? raw.edges.filter(isEdge) : []).map((edge, index) => (edge.id ? edge : { ...edge, id: `e${index + 1}` }));
  const loops = Array.isArray(raw.loops) ? (raw.loops as WorkflowGraph["loops"]) : undefined;
  return { nodes, edges, ...(loops && loops.length > 0 ? { loops } : {}) };
}

/** The config with its body replaced, every other field kept. */
export function writeBody(config: Readonly<Record<string, JsonValue>> | undefined, body: WorkflowGraph): Record<string, JsonValue> {
  const nodes = body.nodes.map(toDocumentNode);
  const edges = body.edges.map(({ id, source, target, sourcePort, loop }) => ({ id, source, target, ...(sourcePort && sourcePort !== DEFAULT_PORT ? { sourcePort } : {}), ...(loop ? { loop } : {}) }));
  return { ...(config ?? {}), body: { nodes, edges, ...(body.loops && body.loops.length > 0 ? { loops: body.loops as unknown as JsonValue[] } : {}) } as JsonValue };
}

/** A node's output ports, from the engine's registry (a body has no server copy to ask). */
export function portsOf(node: WorkflowNode): readonly string[] {
  return EDIT_REGISTRY.get(node.type)?.router?.ports(node) ?? [DEFAULT_PORT];
}

/** An id no node of the workflow has (node ids are unique across the workflow, bodies included). */
export function freshNodeId(type: string, taken: ReadonlySet<string>): string {
  for (let n = 1; ; n += 1) {
    const id = `${type}-${n}`;
    if (!taken.has(id)) return id;
  }
}

/** An edge id the body does not use yet. */
export function freshEdgeId(edges: readonly WorkflowEdge[]): string {
  const taken = new Set(edges.map((edge) => edge.id));
  for (let n = edges.length + 1; ; n += 1) if (!taken.has(`e${n}`)) return `e${n}`;
}

/** Every node id in a graph and in the bodies it holds, at any depth. */
export function allNodeIds(graph: WorkflowGraph): Set<string> {
  const ids = new Set<string>();
  const visit = (current: WorkflowGraph) => {
    for (const node of current.nodes) {
      ids.add(node.id);
      if (node.config?.["body"]) visit(readBody(node.config));
    }
  };
  visit(graph);
  return ids;
}
