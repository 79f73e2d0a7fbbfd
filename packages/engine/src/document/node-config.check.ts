import type { WorkflowNode } from "../model/workflow.js";
import { pipelineRegistry } from "../registry/pipeline-registry.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { DocumentIssue } from "./document-issue.js";
import { createPipelineSchemas, type PipelineSchemas } from "./pipeline-document.schema.js";
import { readGraph } from "./pipeline-graph.reader.js";
import { WORKFLOW_DOCUMENT_LIMITS, type WorkflowDocumentLimits } from "./workflow-document.limits.js";
import { pipelineNode } from "./workflow-document.serializer.js";

const defaultSchemas = createPipelineSchemas(WORKFLOW_DOCUMENT_LIMITS);

/**
 * A node's attributes and config, checked exactly as the document parser checks them (its type's
 * attribute and config schemas, params limits, its body read as a graph), for the API's node edits and
 * the editor's forms. Paths are the node's own fields as a document writes them: `cases[0].when`,
 * `body.nodes[1].type`. The connection rules are checkEdit's and validateWorkflow's.
 */
export function checkNodeConfig(node: WorkflowNode, options: { registry?: NodeTypeRegistry; limits?: WorkflowDocumentLimits } = {}): DocumentIssue[] {
  const limits = options.limits ?? WORKFLOW_DOCUMENT_LIMITS;
  const schemas: PipelineSchemas = limits === WORKFLOW_DOCUMENT_LIMITS ? defaultSchemas : createPipelineSchemas(limits);
  const context = { registry: options.registry ?? pipelineRegistry, limits, schemas, nodePaths: new Map<string, string>(), issues: [] as DocumentIssue[] };
  readGraph({ nodes: [JSON.parse(JSON.stringify(pipelineNode(node)))], edges: [] }, [], 0, context);
  return context.issues.map((issue) => ({ ...issue, path: issue.path.replace(/^nodes\[0\]\.?/, "") }));
}
