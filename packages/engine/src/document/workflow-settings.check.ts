import type { LoopDeclaration, StateChannel, WorkflowLimits } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { DocumentIssue } from "./document-issue.js";
import { createPipelineSchemas, type PipelineSchemas } from "./pipeline-document.schema.js";
import { readGraph } from "./pipeline-graph.reader.js";
import { WORKFLOW_DOCUMENT_LIMITS, type WorkflowDocumentLimits } from "../model/workflow-document.limits.js";
import { zodIssues } from "./zod-issues.js";

const defaultSchemas = createPipelineSchemas(WORKFLOW_DOCUMENT_LIMITS);

/** The workflow settings of `weft.workflow/v2` that the rules read; each one left out is not checked. */
export interface WorkflowSettingsInput {
  loops?: LoopDeclaration[];
  state?: Record<string, StateChannel>;
  limits?: WorkflowLimits;
}

/**
 * Loops, state channels and limits checked exactly as the document parser checks them (shape, id and
 * channel-name limits, DUPLICATE_LOOP_ID), for the API's settings edits. Paths are the document's:
 * `loops[1].id`, `state.answers.reducer`, `limits.maxInvocations`. Whether the loops make sense (bounds,
 * exits, headers) is the rule checker's: checkEdit `updateSettings`.
 */
export function checkWorkflowSettings(settings: WorkflowSettingsInput, options: { registry: NodeTypeRegistry; limits?: WorkflowDocumentLimits }): DocumentIssue[] {
  const limits = options.limits ?? WORKFLOW_DOCUMENT_LIMITS;
  const schemas: PipelineSchemas = limits === WORKFLOW_DOCUMENT_LIMITS ? defaultSchemas : createPipelineSchemas(limits);
  const shape = schemas.document.pick({ state: true, limits: true });
  const shaped = shape.safeParse({ state: settings.state, limits: settings.limits });
  const issues: DocumentIssue[] = shaped.success ? [] : zodIssues(shaped.error, []);
  if (settings.loops !== undefined) {
    const context = { registry: options.registry, limits, schemas, nodePaths: new Map<string, string>(), issues };
    readGraph({ nodes: [], edges: [], loops: JSON.parse(JSON.stringify(settings.loops)) as unknown }, [], 0, context);
  }
  return issues;
}
