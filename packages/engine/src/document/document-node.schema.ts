import { z } from "zod";
import type { WorkflowDocumentLimits } from "../model/workflow-document.limits.js";

/** Fields every node of a workflow document has (v1 and v2); anything else on a v2 node is its type's config. */
export const BASE_NODE_KEYS = ["id", "type", "content", "provider", "model", "params", "prompt", "position"] as const;

/** The building blocks both document formats shape their fields with, under the document limits. */
export function documentFields(limits: WorkflowDocumentLimits) {
  const id = z.string().min(1, "must not be empty").max(limits.maxIdLength, `must be at most ${limits.maxIdLength} characters`);
  const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
  const position = z.strictObject({ x: z.number(), y: z.number() });
  /** A node's own fields (BASE_NODE_KEYS), the same in v1 and v2: v1 holds a node to them (strict), v2 keeps the rest as config. */
  const node = {
    id,
    type: id,
    content: text(limits.maxContentLength).optional(),
    provider: id.optional(),
    model: id.optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    prompt: text(limits.maxPromptLength).optional(),
    position: position.optional(),
  } satisfies Record<(typeof BASE_NODE_KEYS)[number], z.ZodType>;
  return { id, text, node };
}
