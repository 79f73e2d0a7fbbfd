import { z } from "zod";
import { WORKFLOW_DOCUMENT_LIMITS as LIMITS } from "../model/workflow-document.limits.js";

/**
 * Attribute schemas of the built-in node types. A node's attributes are the subset
 * `{ content, provider, model, params, prompt }` that is present on it; each schema is strict, so a
 * text node that names a model (or a model node with content) is refused instead of silently ignored.
 */

const paramValue = z.unknown();

export const textNodeAttributes = z.strictObject({
  content: z.string().max(LIMITS.maxContentLength).optional(),
});

export const modelNodeAttributes = z.strictObject({
  provider: z.string().min(1).max(LIMITS.maxIdLength).optional(),
  model: z.string().min(1).max(LIMITS.maxIdLength).optional(),
  params: z.record(z.string().max(LIMITS.maxIdLength), paramValue).optional(),
  prompt: z.string().max(LIMITS.maxPromptLength).optional(),
});

export type TextNodeAttributes = z.infer<typeof textNodeAttributes>;
export type ModelNodeAttributes = z.infer<typeof modelNodeAttributes>;
