import { z } from "zod";
import { nodeConfig } from "../../registry/node-config.schema.js";

export const GRADE_PORTS = ["pass", "retry", "fail"] as const;
export type GradeVerdict = (typeof GRADE_PORTS)[number];

export const gradeConfig = nodeConfig({
  threshold: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .meta({ description: "Score at or above which the verdict is pass; below it a pass becomes retry." }),
});

/** The grader's reply, as JSON Schema: sent to providers that constrain output, and checked here. */
export const GRADE_REPLY_SCHEMA = {
  type: "object",
  properties: {
    verdict: { type: "string", enum: [...GRADE_PORTS] },
    score: { type: "number", minimum: 0, maximum: 1 },
    reason: { type: "string" },
  },
  required: ["verdict", "score", "reason"],
  additionalProperties: false,
};
