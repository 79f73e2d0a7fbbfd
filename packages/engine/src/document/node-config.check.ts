import type { JsonValue } from "../model/json-value.js";
import type { WorkflowNode } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { DocumentIssue } from "./document-issue.js";
import { BASE_NODE_KEYS } from "./document-node.schema.js";
import { createPipelineSchemas, type PipelineSchemas } from "./pipeline-document.schema.js";
import { readGraph } from "./pipeline-graph.reader.js";
import { WORKFLOW_DOCUMENT_LIMITS, type WorkflowDocumentLimits } from "../model/workflow-document.limits.js";
import { pipelineNode } from "./workflow-document.serializer.js";

const defaultSchemas = createPipelineSchemas(WORKFLOW_DOCUMENT_LIMITS);

export interface NodeCheckOptions {
  registry: NodeTypeRegistry;
  limits?: WorkflowDocumentLimits;
}

/** The fields every node may have; everything else on a document's node is its type's config. */
const NODE_FIELDS = new Set<string>(BASE_NODE_KEYS);

/**
 * One node as a `weft.workflow/v2` document writes it (its type's fields flat on it, bodies' nodes too),
 * read exactly as the document parser reads it: attributes, config schema, params limits, its body as a
 * graph. Returns the node in model form (fields gathered into `config`) and the issues, whose paths are
 * the node's own fields: `cases[0].when`, `body.nodes[1].type`. For the API's node edits and the
 * editor's forms; the connection rules are checkEdit's and validateWorkflow's.
 */
export function readNodeDocument(raw: Record<string, unknown>, options: NodeCheckOptions): { node: WorkflowNode | null; issues: DocumentIssue[] } {
  const limits = options.limits ?? WORKFLOW_DOCUMENT_LIMITS;
  const schemas: PipelineSchemas = limits === WORKFLOW_DOCUMENT_LIMITS ? defaultSchemas : createPipelineSchemas(limits);
  const context = { registry: options.registry, limits, schemas, nodePaths: new Map<string, string>(), issues: [] as DocumentIssue[] };
  const graph = readGraph({ nodes: [JSON.parse(JSON.stringify(raw))], edges: [] }, [], 0, context);
  const issues = context.issues.map((issue) => ({ ...issue, path: issue.path.replace(/^nodes\[0\]\.?/, "") }));
  return { node: graph?.nodes[0] ?? null, issues };
}

/** A model node's attributes and config checked as the document parser checks them (see readNodeDocument). */
export function checkNodeConfig(node: WorkflowNode, options: NodeCheckOptions): DocumentIssue[] {
  return readNodeDocument(pipelineNode(node) as Record<string, unknown>, options).issues;
}

/**
 * A node's config as a document writes it, bodies' nodes with their fields flat (the inverse of what
 * readNodeDocument gathers); null when it has none.
 */
export function configDocument(node: WorkflowNode): Record<string, JsonValue> | null {
  if (!node.config || Object.keys(node.config).length === 0) return null;
  const written = pipelineNode({ id: node.id, type: node.type, config: node.config }) as Record<string, JsonValue>;
  return Object.fromEntries(Object.entries(written).filter(([key]) => !NODE_FIELDS.has(key)));
}
