import type { z } from "zod";
import type { Workflow, WorkflowEdge, WorkflowNode } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import { checkReferences } from "./document-references.check.js";
import { formatPath, WorkflowDocumentError, type DocumentIssue } from "./document-issue.js";
import { utf8LengthExceeds } from "../model/utf8-length.js";
import { WORKFLOW_DOCUMENT_LIMITS, type WorkflowDocumentLimits } from "../model/workflow-document.limits.js";
import { createWorkflowDocumentSchema, WORKFLOW_FORMAT, type WorkflowDocumentShape } from "./workflow-document.schema.js";
import { PIPELINE_FORMAT } from "./pipeline-document.schema.js";
import { readPipelineDocument } from "./pipeline-document.reader.js";
import { assignEdgeIds } from "./pipeline-graph.reader.js";

export type WorkflowFormat = typeof WORKFLOW_FORMAT | typeof PIPELINE_FORMAT;
export const WORKFLOW_FORMATS: readonly WorkflowFormat[] = [WORKFLOW_FORMAT, PIPELINE_FORMAT];

export interface ParseWorkflowOptions {
  /**
   * The node types the document may use (`builtInRegistry`, or the host's own), for v1 and v2 alike:
   * a `weft.workflow/v1` document may hold only the seed types among them (its reference check says so).
   */
  registry: NodeTypeRegistry;
  limits?: WorkflowDocumentLimits;
  /** The formats accepted (default both); another format is refused with UNSUPPORTED_FORMAT. */
  formats?: readonly WorkflowFormat[];
}

export type ParseWorkflowResult = { ok: true; workflow: Workflow } | { ok: false; issues: DocumentIssue[] };

const defaultSchema = createWorkflowDocumentSchema(WORKFLOW_DOCUMENT_LIMITS);

/**
 * Untrusted JSON text → Workflow. Checks, in order: size, JSON syntax, format tag, shape and limits,
 * then references (ids, types, attributes, edges, prompts). Every issue of the first failing stage is
 * reported with its path; the connection rules are not checked here (see validateWorkflow).
 */
export function parseWorkflowDocument(text: string, options: ParseWorkflowOptions): ParseWorkflowResult {
  const limits = options.limits ?? WORKFLOW_DOCUMENT_LIMITS;
  if (utf8LengthExceeds(text, limits.maxBytes)) {
    return fail({ code: "DOCUMENT_TOO_LARGE", path: "", message: `the document is larger than ${limits.maxBytes} bytes` });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return fail({ code: "DOCUMENT_NOT_JSON", path: "", message: `the document is not valid JSON: ${reason}` });
  }
  return parseWorkflowValue(value, options);
}

/** The same checks for a value that is already parsed JSON (a GraphQL JSON argument), minus the byte limit. */
export function parseWorkflowValue(value: unknown, options: ParseWorkflowOptions): ParseWorkflowResult {
  const limits = options.limits ?? WORKFLOW_DOCUMENT_LIMITS;
  const formats = options.formats ?? WORKFLOW_FORMATS;
  const format = checkFormat(value, formats);
  if (typeof format !== "string") return fail(format);
  if (format === PIPELINE_FORMAT) return readPipelineDocument(value as Record<string, unknown>, options.registry, limits);
  const early = checkEnvelope(value, limits);
  if (early) return fail(early);
  const schema = limits === WORKFLOW_DOCUMENT_LIMITS ? defaultSchema : createWorkflowDocumentSchema(limits);
  const shaped = schema.safeParse(value);
  if (!shaped.success) return { ok: false, issues: shapeIssues(shaped.error, limits) };
  const issues = checkReferences(shaped.data, options.registry, limits);
  if (issues.length > 0) return { ok: false, issues: issues.slice(0, limits.maxIssues) };
  return { ok: true, workflow: toWorkflow(shaped.data) };
}

/** Throwing variant: the workflow, or a WorkflowDocumentError listing every issue. */
export function readWorkflowDocument(text: string, options: ParseWorkflowOptions): Workflow {
  const result = parseWorkflowDocument(text, options);
  if (!result.ok) throw new WorkflowDocumentError(result.issues);
  return result.workflow;
}

function fail(issue: DocumentIssue): ParseWorkflowResult {
  return { ok: false, issues: [issue] };
}

/** Checked before anything else, so that a document of another format gets one clear message. */
function checkFormat(value: unknown, formats: readonly WorkflowFormat[]): WorkflowFormat | DocumentIssue {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { code: "FIELD_INVALID", path: "", message: "the document must be a JSON object" };
  }
  const format = (value as Record<string, unknown>).format;
  const known = formats.find((candidate) => candidate === format);
  if (known) return known;
  const found = format === undefined ? "it has no format field" : `found ${JSON.stringify(format)}`;
  const expected = formats.map((candidate) => `"${candidate}"`).join(" or ");
  return { code: "UNSUPPORTED_FORMAT", path: "format", message: `format must be ${expected}; ${found}` };
}

/** An oversized node or edge list is refused before any of its items is looked at. */
function checkEnvelope(value: unknown, limits: WorkflowDocumentLimits): DocumentIssue | null {
  const record = value as Record<string, unknown>;
  for (const [key, max] of [["nodes", limits.maxNodes], ["edges", limits.maxEdges]] as const) {
    const list = record[key];
    if (Array.isArray(list) && list.length > max) {
      return { code: "LIMIT_EXCEEDED", path: key, message: `must hold at most ${max} ${key}; it holds ${list.length}` };
    }
  }
  if (isObject(record.prompts) && Object.hasOwn(record.prompts, "__proto__")) return protoIssue("prompts.__proto__");
  return findProtoParams(record.nodes);
}

function isObject(value: unknown): value is object {
  return value !== null && typeof value === "object";
}

function protoIssue(path: string): DocumentIssue {
  return { code: "FIELD_INVALID", path, message: '"__proto__" is not allowed as a key' };
}

/**
 * JSON.parse makes "__proto__" an ordinary own key, which the schema would silently drop from records
 * (copying it would set the object's prototype). Refuse it instead, so nothing is lost unnoticed.
 */
function findProtoParams(nodes: unknown): DocumentIssue | null {
  if (!Array.isArray(nodes)) return null;
  for (const [k, node] of nodes.entries()) {
    const params: unknown = isObject(node) ? (node as Record<string, unknown>).params : undefined;
    if (isObject(params) && Object.hasOwn(params, "__proto__")) return protoIssue(`nodes[${k}].params.__proto__`);
  }
  return null;
}

function shapeIssues(error: z.ZodError, limits: WorkflowDocumentLimits): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        issues.push({ code: "FIELD_UNKNOWN", path: formatPath([...issue.path, key]), message: `unknown field "${key}"` });
      }
    } else {
      const code = issue.code === "too_big" ? "LIMIT_EXCEEDED" : "FIELD_INVALID";
      issues.push({ code, path: formatPath(issue.path), message: issue.message });
    }
  }
  return issues.slice(0, limits.maxIssues);
}

function toWorkflow(document: WorkflowDocumentShape): Workflow {
  const nodes = document.nodes.map((node): WorkflowNode => {
    const out: WorkflowNode = { id: node.id, type: node.type };
    if (node.content !== undefined) out.content = node.content;
    if (node.provider !== undefined) out.provider = node.provider;
    if (node.model !== undefined) out.model = node.model;
    if (node.params !== undefined) out.params = node.params;
    if (node.prompt !== undefined) out.prompt = node.prompt;
    if (node.position !== undefined) out.position = { x: node.position.x, y: node.position.y };
    return out;
  });
  return {
    name: document.name,
    prompts: { ...document.prompts },
    outputFormat: document.outputFormat,
    knowledgeBase: document.knowledgeBase ?? null,
    intensity: document.intensity ?? null,
    nodes,
    edges: withEdgeIds(document.edges),
  };
}

/** Edges without an id get `e1`, `e2`, … in document order, skipping ids that explicit edges already use. */
function withEdgeIds(edges: WorkflowDocumentShape["edges"]): WorkflowEdge[] {
  const ids = assignEdgeIds(edges);
  return edges.map((edge, k) => ({ id: ids[k]!, source: edge.source, target: edge.target }));
}
