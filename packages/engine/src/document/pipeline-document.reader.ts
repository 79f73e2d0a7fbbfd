import { DEFAULT_OUTPUT_FORMAT, DEFAULT_PROMPTS } from "../model/defaults.js";
import type { StateChannel, Workflow } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import { formatPath, type DocumentIssue } from "./document-issue.js";
import { findJsonLimitProblem } from "./json-limits.check.js";
import { createPipelineSchemas, type PipelineDocumentShape, type PipelineSchemas } from "./pipeline-document.schema.js";
import { readGraph, type GraphReadContext } from "./pipeline-graph.reader.js";
import { zodIssues } from "./zod-issues.js";
import { WORKFLOW_DOCUMENT_LIMITS, type WorkflowDocumentLimits } from "../model/workflow-document.limits.js";

export type ReadResult = { ok: true; workflow: Workflow } | { ok: false; issues: DocumentIssue[] };

const defaultSchemas = createPipelineSchemas(WORKFLOW_DOCUMENT_LIMITS);

/**
 * A parsed `weft.workflow/v2` value → Workflow. Checks, in order: plain JSON and whole-document counts
 * (bodies included), the settings' shape, then the graph (shape, ids, types, attributes, configs, bodies),
 * reporting every issue of the first failing stage. Connection rules are validateWorkflow's job.
 */
export function readPipelineDocument(value: Record<string, unknown>, registry: NodeTypeRegistry, limits: WorkflowDocumentLimits): ReadResult {
  const early = checkPlainJson(value, limits) ?? checkCounts(value, limits);
  if (early) return { ok: false, issues: [early] };
  const schemas = limits === WORKFLOW_DOCUMENT_LIMITS ? defaultSchemas : createPipelineSchemas(limits);
  const shaped = schemas.document.safeParse(value);
  if (!shaped.success) return { ok: false, issues: zodIssues(shaped.error, []).slice(0, limits.maxIssues) };
  const context: GraphReadContext = { registry, limits, schemas: schemas as PipelineSchemas, nodePaths: new Map(), issues: [] };
  const graph = readGraph({ nodes: value.nodes, edges: value.edges, ...(value.loops === undefined ? {} : { loops: value.loops }) }, [], 0, context);
  context.issues.push(...checkPrompts(shaped.data.prompts ?? {}, registry));
  if (!graph || context.issues.length > 0) return { ok: false, issues: context.issues.slice(0, limits.maxIssues) };
  return { ok: true, workflow: toWorkflow(shaped.data, graph) };
}

function toWorkflow(document: PipelineDocumentShape, graph: NonNullable<ReturnType<typeof readGraph>>): Workflow {
  const workflow: Workflow = {
    name: document.name,
    prompts: { ...DEFAULT_PROMPTS, ...document.prompts },
    outputFormat: document.outputFormat ?? DEFAULT_OUTPUT_FORMAT,
    knowledgeBase: document.knowledgeBase ?? null,
    intensity: document.intensity ?? null,
    ...graph,
  };
  if (document.state !== undefined) {
    const state: Record<string, StateChannel> = {};
    for (const [name, channel] of Object.entries(document.state)) {
      state[name] = { reducer: channel.reducer, ...(channel.key === undefined ? {} : { key: channel.key }), ...(channel.scope === undefined ? {} : { scope: channel.scope }) };
    }
    workflow.state = state;
  }
  if (document.limits !== undefined) {
    const { maxInvocations, maxCostUsd } = document.limits;
    workflow.limits = { ...(maxInvocations === undefined ? {} : { maxInvocations }), ...(maxCostUsd === undefined ? {} : { maxCostUsd }) };
  }
  return workflow;
}

/** v2 prompts are optional; a key must still name a type whose prompt comes from the workflow. */
function checkPrompts(prompts: Record<string, string>, registry: NodeTypeRegistry): DocumentIssue[] {
  const types = registry.definitions().filter((spec) => spec.usesModel && spec.workflowPrompt !== false).map((spec) => spec.type);
  return Object.keys(prompts)
    .filter((key) => !types.includes(key))
    .map((key) => ({
      code: "FIELD_UNKNOWN" as const,
      path: formatPath(["prompts", key]),
      message: `"${key}" is not a node type that takes the workflow's prompt; prompts are keyed by ${types.join(", ")}`,
    }));
}

/**
 * JSON.parse makes "__proto__" an ordinary own key, which copying would turn into a prototype. Refused
 * anywhere in the document, as v1 refuses it in params and prompts, so nothing is lost unnoticed.
 */
function checkPlainJson(value: Record<string, unknown>, limits: WorkflowDocumentLimits): DocumentIssue | null {
  const problem = findJsonLimitProblem(value, { maxDepth: 64, maxEntries: Number.MAX_SAFE_INTEGER, maxStringLength: limits.maxBytes });
  if (!problem) return null;
  return { code: problem.kind === "limit" ? "LIMIT_EXCEEDED" : "FIELD_INVALID", path: formatPath(problem.path), message: problem.message };
}

/** Nodes and edges counted over the whole document, bodies included, before any of them is checked. */
function checkCounts(value: Record<string, unknown>, limits: WorkflowDocumentLimits): DocumentIssue | null {
  let nodes = 0;
  let edges = 0;
  const graphs: unknown[] = [value];
  while (graphs.length > 0) {
    const graph = graphs.pop() as Record<string, unknown>;
    if (Array.isArray(graph.edges)) edges += graph.edges.length;
    if (!Array.isArray(graph.nodes)) continue;
    nodes += graph.nodes.length;
    for (const node of graph.nodes as unknown[]) {
      const body = node !== null && typeof node === "object" ? (node as Record<string, unknown>).body : undefined;
      if (body !== null && typeof body === "object") graphs.push(body);
    }
  }
  if (nodes > limits.maxNodes) return { code: "LIMIT_EXCEEDED", path: "nodes", message: `must hold at most ${limits.maxNodes} nodes, bodies included; it holds ${nodes}` };
  if (edges > limits.maxEdges) return { code: "LIMIT_EXCEEDED", path: "edges", message: `must hold at most ${limits.maxEdges} edges, bodies included; it holds ${edges}` };
  return null;
}
