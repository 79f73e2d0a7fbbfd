import { z } from "zod";
import { WeftError } from "../model/errors.js";
import { SEARCH_INTENSITIES } from "../model/workflow.js";
import { PREPARED_RUN_FORMAT, type PreparedRun } from "./prepare-run.js";

const intensity = z.enum(SEARCH_INTENSITIES);
const node = z.looseObject({
  id: z.string(),
  type: z.string(),
  content: z.string().optional(),
  provider: z.string().optional(),
  model: z.string().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
  prompt: z.string().optional(),
});
const edge = z.looseObject({ id: z.string(), source: z.string(), target: z.string() });

/** The shape of a stored PreparedRun. Its rules were checked by prepareRun and are not checked again. */
const preparedRunSchema = z.object({
  format: z.literal(PREPARED_RUN_FORMAT),
  workflow: z.looseObject({
    name: z.string(),
    prompts: z.record(z.string(), z.string()),
    outputFormat: z.string(),
    knowledgeBase: z.string().nullable().optional(),
    intensity: intensity.nullable().optional(),
    nodes: z.array(node),
    edges: z.array(edge),
  }),
  settings: z.object({
    prompts: z.record(z.string(), z.string()),
    outputFormat: z.string(),
    knowledgeBase: z.string().nullable(),
    intensity,
    topK: z.int().min(1),
    topKByIntensity: z.object({ LOW: z.int().min(1), MEDIUM: z.int().min(1), HIGH: z.int().min(1) }).optional(),
    parseRepair: z.boolean(),
    streamTokens: z.boolean(),
  }),
  inputs: z.record(z.string(), z.string()),
  state: z.record(z.string(), z.json()),
  concurrency: z.int().min(1).nullable(),
  maxInvocations: z.int().min(1),
  limits: z
    .object({ maxValueDepth: z.int().min(1), maxNodeOutputBytes: z.int().min(1), maxRunBytes: z.int().min(1), maxExpressionCost: z.int().min(1) })
    .optional(),
});

/**
 * Reads back a PreparedRun that was stored as JSON (a run's snapshot, a queued job). Checks its shape
 * and returns the value itself, unknown fields kept. Anything else throws WeftError PREPARED_RUN_INVALID:
 * storage holding something else is not the user's doing.
 */
export function parsePreparedRun(value: unknown): PreparedRun {
  const parsed = preparedRunSchema.safeParse(value);
  if (parsed.success) return value as PreparedRun;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  throw new WeftError("PREPARED_RUN_INVALID", `not a ${PREPARED_RUN_FORMAT} prepared run (${where}${issue?.message ?? "invalid"})`, {
    audience: "internal",
  });
}
