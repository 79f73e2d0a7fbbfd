import { z } from "zod";
import { SEARCH_INTENSITIES } from "../model/workflow.js";
import type { WorkflowDocumentLimits } from "../model/workflow-document.limits.js";
import { hasVisibleCharacter, VISIBLE_NAME } from "../model/visible-text.js";
import { documentFields } from "./document-node.schema.js";

export const WORKFLOW_FORMAT = "weft.workflow/v1";

/**
 * The shape of a `weft.workflow/v1` document. Objects are strict so that a misspelt field is reported
 * rather than silently dropped. Node attributes are checked again, per type, by the registry's schemas.
 */
export function createWorkflowDocumentSchema(limits: WorkflowDocumentLimits) {
  const { id, text, node: nodeFields } = documentFields(limits);
  const node = z.strictObject(nodeFields);
  const edge = z.strictObject({ id: id.optional(), source: id, target: id });
  return z.strictObject({
    format: z.literal(WORKFLOW_FORMAT),
    // The API's name rule too (create, update, duplicate): blank names are refused everywhere.
    name: z
      .string()
      .refine(hasVisibleCharacter, VISIBLE_NAME)
      .refine((name) => name.length <= limits.maxNameLength, `must be at most ${limits.maxNameLength} characters`),
    prompts: z.record(id, text(limits.maxPromptLength)),
    outputFormat: text(limits.maxPromptLength),
    knowledgeBase: id.nullable().optional(),
    intensity: z.enum(SEARCH_INTENSITIES).nullable().optional(),
    nodes: z.array(node).max(limits.maxNodes, `must hold at most ${limits.maxNodes} nodes`),
    edges: z.array(edge).max(limits.maxEdges, `must hold at most ${limits.maxEdges} edges`),
  });
}

export type WorkflowDocumentShape = z.infer<ReturnType<typeof createWorkflowDocumentSchema>>;
export type DocumentNode = WorkflowDocumentShape["nodes"][number];
export type DocumentEdge = WorkflowDocumentShape["edges"][number];

/** A document as written by the serializer: every edge has its id. */
export interface WorkflowDocument extends Omit<WorkflowDocumentShape, "edges" | "format"> {
  format: typeof WORKFLOW_FORMAT;
  edges: { id: string; source: string; target: string }[];
}
