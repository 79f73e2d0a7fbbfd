import { z } from "zod";
import { SEARCH_INTENSITIES, STATE_REDUCERS, STATE_SCOPES } from "../model/workflow.js";
import { CHANNEL_NAME } from "../registry/node-config.schema.js";
import type { WorkflowDocumentLimits } from "../model/workflow-document.limits.js";
import { hasVisibleCharacter, VISIBLE_NAME } from "../model/visible-text.js";
import { documentFields } from "./document-node.schema.js";

export const PIPELINE_FORMAT = "weft.workflow/v2";

/** The largest `limits.maxCostUsd` a workflow may set (US dollars per run). */
export const MAX_COST_USD_CEILING = 1_000_000;

/** The hard ceiling on `limits.maxInvocations` (SPEC-V2 §4; the default is 1,000). */
export const MAX_INVOCATIONS_CEILING = 100_000;
export const DEFAULT_MAX_INVOCATIONS = 1_000;

/**
 * The shape of a `weft.workflow/v2` document (SPEC-V2). Like v1, objects are strict, except nodes:
 * a node's type-specific fields (`cases`, `template`, `body`, …) sit flat on it and are checked by its
 * type's config schema. `body` graphs have this same graph shape and are checked recursively.
 * Loop bounds and expressions are only shaped here; their meaning is the rule checker's
 * (LOOP_BOUND_INVALID, EXPRESSION_INVALID), so an editor can hold a half-built loop.
 */
export function createPipelineSchemas(limits: WorkflowDocumentLimits) {
  const { id, text, node: nodeFields } = documentFields(limits);
  const node = z.object(nodeFields).catchall(z.unknown());
  const edge = z.strictObject({ id: id.optional(), source: id, sourcePort: id.optional(), target: id, loop: id.optional() });
  const loop = z.strictObject({ id, max: z.number().optional(), exit: id.nullable().optional() });
  const graph = z.strictObject({
    nodes: z.array(node).max(limits.maxNodes, `must hold at most ${limits.maxNodes} nodes`),
    edges: z.array(edge).max(limits.maxEdges, `must hold at most ${limits.maxEdges} edges`),
    loops: z.array(loop).max(limits.maxLoops, `must hold at most ${limits.maxLoops} loops`).optional(),
  });
  const channel = z.strictObject({
    reducer: z.enum(STATE_REDUCERS),
    key: id.optional(),
    scope: z.enum(STATE_SCOPES).optional(),
  });
  const document = z.strictObject({
    nodes: z.unknown().optional(),
    edges: z.unknown().optional(),
    loops: z.unknown().optional(),
    format: z.literal(PIPELINE_FORMAT),
    name: z.string().refine(hasVisibleCharacter, VISIBLE_NAME).max(limits.maxNameLength, `must be at most ${limits.maxNameLength} characters`),
    prompts: z.record(id, text(limits.maxPromptLength)).optional(),
    outputFormat: text(limits.maxPromptLength).optional(),
    knowledgeBase: id.nullable().optional(),
    intensity: z.enum(SEARCH_INTENSITIES).nullable().optional(),
    state: z
      .record(z.string().regex(CHANNEL_NAME, "channel names must be identifiers").max(limits.maxIdLength), channel)
      .refine((state) => Object.keys(state).length <= limits.maxStateChannels, `must declare at most ${limits.maxStateChannels} channels`)
      .optional(),
    limits: z
      .strictObject({
        maxInvocations: z.number().int("must be a whole number").min(1).max(MAX_INVOCATIONS_CEILING, `must be at most ${MAX_INVOCATIONS_CEILING}`).optional(),
        maxCostUsd: z.number().positive("must be more than 0").max(MAX_COST_USD_CEILING, `must be at most ${MAX_COST_USD_CEILING}`).optional(),
      })
      .optional(),
  });
  return { graph, document };
}

export type PipelineSchemas = ReturnType<typeof createPipelineSchemas>;
export type PipelineGraphShape = z.infer<PipelineSchemas["graph"]>;
export type PipelineDocumentShape = z.infer<PipelineSchemas["document"]>;
export type PipelineNodeShape = PipelineGraphShape["nodes"][number];
