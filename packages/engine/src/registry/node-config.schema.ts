import { z } from "zod";
import { WORKFLOW_DOCUMENT_LIMITS as LIMITS } from "../model/workflow-document.limits.js";

/**
 * Building blocks of the node types' config schemas. Each field carries its description and, where a
 * plain JSON type says too little, an `x-weft-kind` (cel, celList, template, channel, port, jsonSchema,
 * graph, knowledgeBase): `describeNodeType` turns a config schema into the JSON Schema the node catalogue and the
 * editor's forms read, so the field list and the validation come from one source.
 */

export type FieldKind = "cel" | "celList" | "template" | "channel" | "port" | "jsonSchema" | "graph" | "knowledgeBase" | "text";

export function kind(fieldKind: FieldKind, description: string, extra: Record<string, unknown> = {}) {
  return { description, "x-weft-kind": fieldKind, ...extra };
}

/** State channel names appear in `{state.<channel>}` and in CEL (`state.<channel>`): identifiers only. */
export const CHANNEL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const channelName = z
  .string()
  .regex(CHANNEL_NAME, "must be an identifier (letters, digits and _, not starting with a digit)")
  .max(LIMITS.maxIdLength);

/** Port names: ids, but `out` is reserved for ordinary nodes and `default` for routers' fallback. */
export const portName = z
  .string()
  .min(1, "must not be empty")
  .max(LIMITS.maxIdLength)
  .refine((port) => port !== "out" && port !== "default", { message: '"out" and "default" are reserved port names' });

export const celExpression = z
  .string()
  .min(1, "must not be empty")
  .max(LIMITS.maxExpressionLength, `must be at most ${LIMITS.maxExpressionLength} characters`);

export const templateText = z.string().max(LIMITS.maxPromptLength, `must be at most ${LIMITS.maxPromptLength} characters`);

/** Fields every node type takes in a `weft.workflow/v2` document. */
export const commonConfigFields = {
  writes: channelName
    .optional()
    .meta(kind("channel", "State channel this node's output is merged into, by the channel's reducer.")),
};

/** A strict config schema: the common fields plus the type's own. */
export function nodeConfig<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject({ ...commonConfigFields, ...shape });
}

/** The seed-000 types take only the common fields. */
export const seedNodeConfig = nodeConfig({});

/** A knowledge base by name (retrieve, expand, llm); `.meta` again to say what the node does with it. */
export const knowledgeBaseField = z
  .string()
  .min(1)
  .max(LIMITS.maxIdLength)
  .optional()
  .meta(kind("knowledgeBase", "Knowledge base to search (by name); default: the run's."));

/** `knowledgeBase` and `intensity` as v1 has them workflow-wide, here per node. */
export const retrievalConfigFields = {
  knowledgeBase: knowledgeBaseField.meta(kind("knowledgeBase", "Knowledge base (by name) searched with the node's input for {context}.")),
  intensity: z
    .enum(["LOW", "MEDIUM", "HIGH"])
    .optional()
    .meta({ description: "Search intensity (top_k); default: the run's." }),
};
