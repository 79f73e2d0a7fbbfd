import { z } from "zod";
import { nodeConfig } from "../../registry/node-config.schema.js";

export const GUARDRAIL_PORTS = ["pass", "blocked"] as const;
export const GUARDRAIL_LIMITS = { maxRules: 100, maxPatternLength: 500, maxKeywordLength: 200 } as const;

/** Patterns are JavaScript regular expressions, matched case-insensitively on the input text. */
export const GUARDRAIL_PATTERN_FLAGS = "iu";

const pattern = z
  .string()
  .min(1)
  .max(GUARDRAIL_LIMITS.maxPatternLength)
  .superRefine((source, context) => {
    try {
      new RegExp(source, GUARDRAIL_PATTERN_FLAGS);
    } catch (error) {
      context.addIssue({ code: "custom", message: `not a valid regular expression: ${(error as Error).message}` });
    }
  });

export const guardrailConfig = nodeConfig({
  patterns: z.array(pattern).max(GUARDRAIL_LIMITS.maxRules).optional().meta({ description: "Regular expressions (case-insensitive); a match blocks the input." }),
  keywords: z
    .array(z.string().min(1).max(GUARDRAIL_LIMITS.maxKeywordLength))
    .max(GUARDRAIL_LIMITS.maxRules)
    .optional()
    .meta({ description: "Words or phrases (case-insensitive, Unicode-normalised); one appearing in the input blocks it." }),
  maxLength: z.number().int().min(1).max(10_000_000).optional().meta({ description: "Inputs longer than this many characters are blocked." }),
});

/** The model check's reply, when the node names a model. */
export const GUARDRAIL_REPLY_SCHEMA = {
  type: "object",
  properties: { allowed: { type: "boolean" }, reason: { type: "string" } },
  required: ["allowed", "reason"],
  additionalProperties: false,
};
