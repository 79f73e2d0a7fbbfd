import type { z } from "zod";
import type { JsonValue } from "../model/json-value.js";
import type { LoopDeclaration, WorkflowEdge, WorkflowGraph, WorkflowNode } from "../model/workflow.js";
import { seedNodeConfig } from "../registry/node-config.schema.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { NodeTypeDefinition } from "../registry/node-type-definition.js";
import { formatPath, type DocumentIssue } from "./document-issue.js";
import { checkParams } from "./params-limits.check.js";
import { BASE_NODE_KEYS } from "./document-node.schema.js";
import type { PipelineNodeShape, PipelineSchemas } from "./pipeline-document.schema.js";
import { zodIssues } from "./zod-issues.js";
import type { WorkflowDocumentLimits } from "../model/workflow-document.limits.js";

export interface GraphReadContext {
  registry: NodeTypeRegistry;
  limits: WorkflowDocumentLimits;
  schemas: PipelineSchemas;
  /** Node ids are unique across the whole document, bodies included, so every event names one node. */
  nodePaths: Map<string, string>;
  issues: DocumentIssue[];
}

const BASE_KEYS = new Set<string>(BASE_NODE_KEYS);

/**
 * One graph of a `weft.workflow/v2` document (the top level or a body), as the model holds it: the
 * type-specific fields of each node gathered into `config` and checked by the type's config schema,
 * bodies read recursively. Issues go to the context; null when the graph's shape is unusable.
 */
export function readGraph(raw: unknown, path: PropertyKey[], depth: number, context: GraphReadContext): WorkflowGraph | null {
  const shaped = context.schemas.graph.safeParse(raw);
  if (!shaped.success) {
    context.issues.push(...zodIssues(shaped.error, path));
    return null;
  }
  const nodes = shaped.data.nodes.map((node, k) => readNode(node, [...path, "nodes", k], depth, context));
  const ids = new Set(shaped.data.nodes.map((node) => node.id));
  const edges = readEdges(shaped.data.edges, ids, path, context);
  const graph: WorkflowGraph = { nodes, edges };
  if (shaped.data.loops !== undefined) graph.loops = readLoops(shaped.data.loops, path, context);
  return graph;
}

function readNode(raw: PipelineNodeShape, path: PropertyKey[], depth: number, context: GraphReadContext): WorkflowNode {
  const where = formatPath(path);
  const earlier = context.nodePaths.get(raw.id);
  if (earlier !== undefined) {
    context.issues.push({ code: "DUPLICATE_NODE_ID", path: `${where}.id`, message: `node id "${raw.id}" is already used by ${earlier}` });
  } else {
    context.nodePaths.set(raw.id, where);
  }
  const node: WorkflowNode = { id: raw.id, type: raw.type };
  const attributes: Record<string, unknown> = {};
  const config: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === "id" || key === "type" || value === undefined) continue;
    if (BASE_KEYS.has(key)) attributes[key] = value;
    else config[key] = value;
  }
  if (raw.position !== undefined) node.position = { x: raw.position.x, y: raw.position.y };
  delete attributes.position;
  Object.assign(node, attributes);
  const spec = context.registry.get(raw.type);
  if (!spec) {
    const message = `unknown node type "${raw.type}"; known types: ${context.registry.types().join(", ")}`;
    context.issues.push({ code: "UNKNOWN_NODE_TYPE", path: `${where}.type`, message });
    return node;
  }
  checkAttributes(spec, attributes, path, context);
  const checked = checkConfig(spec, config, path, depth, context);
  if (Object.keys(checked).length > 0) node.config = checked;
  return node;
}

function checkAttributes(spec: NodeTypeDefinition, attributes: Record<string, unknown>, path: PropertyKey[], context: GraphReadContext): void {
  const parsed = spec.attributes.safeParse(attributes);
  if (!parsed.success) context.issues.push(...zodIssues(parsed.error, path, (key) => `${spec.label} nodes take no "${key}"`));
  if (attributes.params) {
    const problem = checkParams(attributes.params as Record<string, unknown>, [...path, "params"], context.limits);
    if (problem) context.issues.push(problem);
  }
}

/** The type's config schema decides; a body is also read as a graph of its own, one level deeper. */
function checkConfig(
  spec: NodeTypeDefinition,
  config: Record<string, unknown>,
  path: PropertyKey[],
  depth: number,
  context: GraphReadContext,
): Record<string, JsonValue> {
  const schema: z.ZodType = spec.config ?? seedNodeConfig;
  const parsed = schema.safeParse(config);
  if (!parsed.success) context.issues.push(...zodIssues(parsed.error, path, (key) => `${spec.label} nodes take no "${key}"`));
  const checked = { ...((parsed.success ? parsed.data : config) as Record<string, JsonValue>) };
  const body = config.body;
  if (spec.body && body !== null && typeof body === "object" && !Array.isArray(body)) {
    if (depth + 1 > context.limits.maxBodyDepth) {
      const message = `bodies may be nested at most ${context.limits.maxBodyDepth} deep`;
      context.issues.push({ code: "LIMIT_EXCEEDED", path: formatPath([...path, "body"]), message });
    } else {
      const graph = readGraph(body, [...path, "body"], depth + 1, context);
      if (graph) checked.body = graph as unknown as JsonValue;
    }
  }
  return checked;
}

function readEdges(raw: PipelineSchemasEdge[], ids: ReadonlySet<string>, path: PropertyKey[], context: GraphReadContext): WorkflowEdge[] {
  const edgeIndex = new Map<string, number>();
  raw.forEach((edge, k) => {
    const where = formatPath([...path, "edges", k]);
    for (const end of ["source", "target"] as const) {
      if (!ids.has(edge[end])) context.issues.push({ code: "EDGE_NODE_MISSING", path: `${where}.${end}`, message: `no node of this graph has id "${edge[end]}"` });
    }
    if (edge.id === undefined) return;
    const earlier = edgeIndex.get(edge.id);
    if (earlier !== undefined) {
      context.issues.push({ code: "DUPLICATE_EDGE_ID", path: `${where}.id`, message: `edge id "${edge.id}" is already used by edges[${earlier}]` });
    } else {
      edgeIndex.set(edge.id, k);
    }
  });
  const assigned = assignEdgeIds(raw);
  return raw.map((edge, k) => {
    const out: WorkflowEdge = { id: assigned[k]!, source: edge.source, target: edge.target };
    if (edge.sourcePort !== undefined) out.sourcePort = edge.sourcePort;
    if (edge.loop !== undefined) out.loop = edge.loop;
    return out;
  });
}

type PipelineSchemasEdge = { id?: string | undefined; source: string; target: string; sourcePort?: string | undefined; loop?: string | undefined };

/** Edges without an id get `e1`, `e2`, … in document order, skipping ids that explicit edges already use. */
export function assignEdgeIds(edges: readonly { id?: string | undefined }[]): string[] {
  const taken = new Set(edges.flatMap((edge) => (edge.id === undefined ? [] : [edge.id])));
  let counter = 0;
  const nextId = (): string => {
    do counter += 1;
    while (taken.has(`e${counter}`));
    return `e${counter}`;
  };
  return edges.map((edge) => edge.id ?? nextId());
}

function readLoops(raw: { id: string; max?: number | undefined; exit?: string | null | undefined }[], path: PropertyKey[], context: GraphReadContext): LoopDeclaration[] {
  const seen = new Map<string, number>();
  return raw.map((loop, k) => {
    const earlier = seen.get(loop.id);
    if (earlier !== undefined) {
      const message = `loop id "${loop.id}" is already used by loops[${earlier}]`;
      context.issues.push({ code: "DUPLICATE_LOOP_ID", path: formatPath([...path, "loops", k, "id"]), message });
    } else {
      seen.set(loop.id, k);
    }
    const out: LoopDeclaration = { id: loop.id, exit: loop.exit ?? null };
    if (loop.max !== undefined) out.max = loop.max;
    return out;
  });
}
