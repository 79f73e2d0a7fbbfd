import { z } from "zod";
import { nodeConfig } from "../../registry/node-config.schema.js";

export const GUARDRAIL_PORTS = ["pass", "blocked"] as const;
export const GUARDRAIL_LIMITS = { maxRules: 100, maxPatternLength: 500, maxKeywordLength: 200 } as const;

/** Patterns are RE2 syntax (patterns/user-pattern.ts), matched case-insensitively; the rule checker refuses one RE2 cannot take (PATTERN_INVALID). */
const pattern = z.string().min(1).max(GUARDRAIL_LIMITS.maxPatternLength);

export const guardrailConfig = nodeConfig({
  patterns: z.array(pattern).max(GUARDRAIL_LIMITS.maxRules).optional().meta({ description: "Regular expressions in RE2 syntax (case-insensitive); a match blocks the input." }),
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
