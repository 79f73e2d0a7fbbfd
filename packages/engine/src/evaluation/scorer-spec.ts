import { z } from "zod";
import { findJsonLimitProblem } from "../document/json-limits.check.js";
import { checkParams } from "../document/params-limits.check.js";
import type { JsonValue } from "../model/json-value.js";
import { WORKFLOW_DOCUMENT_LIMITS as DOCUMENT } from "../model/workflow-document.limits.js";
import { patternProblem } from "../patterns/user-pattern.js";
import { schemaPatterns, schemaProblem } from "../schema/json-schema.check.js";

/**
 * Scorers as users write them (SPEC-V3 §4): a JSON object `{"id", "type", …settings, "threshold"?}`. A
 * score is in [0, 1]; a row passes a scorer when its score is at or above `threshold` (default 1). The
 * types are in scorer-types.ts; these are the limits and the check of a list.
 */
export const SCORER_LIMITS = {
  maxScorers: 20,
  maxPatternLength: 1_000,
  maxValueLength: 10_000,
  maxRubricLength: 20_000,
  /** A json_schema scorer's schema, as an llm node's schema. */
  maxSchemaDepth: DOCUMENT.maxSchemaDepth,
  maxSchemaEntries: DOCUMENT.maxSchemaEntries,
} as const;

export const SCORER_ID = /^[A-Za-z0-9_.-]{1,64}$/;

const base = {
  id: z.string().regex(SCORER_ID, "a scorer id is 1 to 64 letters, digits, '_', '.' or '-'"),
  threshold: z.number().min(0).max(1).optional(),
};

const exact = z.object({ ...base, type: z.literal("exact"), ignoreCase: z.boolean().optional(), trim: z.boolean().optional() }).strict();
const contains = z
  .object({ ...base, type: z.literal("contains"), ignoreCase: z.boolean().optional(), value: z.string().max(SCORER_LIMITS.maxValueLength).optional() })
  .strict();
const regex = z.object({ ...base, type: z.literal("regex"), pattern: z.string().min(1).max(SCORER_LIMITS.maxPatternLength), ignoreCase: z.boolean().optional() }).strict();
const jsonSchema = z.object({ ...base, type: z.literal("json_schema"), schema: z.unknown() }).strict();
const similarity = z.object({ ...base, type: z.literal("similarity") }).strict();
const judge = z
  .object({
    ...base,
    type: z.literal("judge"),
    provider: z.string().min(1).max(DOCUMENT.maxIdLength),
    model: z.string().min(1).max(DOCUMENT.maxIdLength),
    rubric: z.string().min(1).max(SCORER_LIMITS.maxRubricLength),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

const scorerShape = z.discriminatedUnion("type", [exact, contains, regex, jsonSchema, similarity, judge]);

export type ExactScorerSpec = z.infer<typeof exact>;
export type ContainsScorerSpec = z.infer<typeof contains>;
export type RegexScorerSpec = z.infer<typeof regex>;
export type JsonSchemaScorerSpec = Omit<z.infer<typeof jsonSchema>, "schema"> & { schema: JsonValue };
export type SimilarityScorerSpec = z.infer<typeof similarity>;
export type JudgeScorerSpec = Omit<z.infer<typeof judge>, "params"> & { params?: Record<string, JsonValue> };
export type ScorerSpec = ExactScorerSpec | ContainsScorerSpec | RegexScorerSpec | JsonSchemaScorerSpec | SimilarityScorerSpec | JudgeScorerSpec;

export type ScorerIssueCode = "VALIDATION_FAILED" | "LIMIT_EXCEEDED" | "PATTERN_INVALID";

/** Why a list of scorers was refused: `path` from the list (`[1, "pattern"]`). */
export interface ScorerIssue {
  code: ScorerIssueCode;
  message: string;
  path: (string | number)[];
}

export type ScorersRead = { ok: true; scorers: ScorerSpec[] } | { ok: false; issues: ScorerIssue[] };

/** The threshold a scorer passes at. */
export function scorerThreshold(spec: ScorerSpec): number {
  return spec.threshold ?? 1;
}

/**
 * Reads a JSON list of scorers and reports every problem at once: shape, unique ids, limits, and the
 * patterns (RE2 syntax, PATTERN_INVALID with the field) and schemas the scorers would use.
 */
export function readScorers(value: unknown): ScorersRead {
  if (!Array.isArray(value)) return { ok: false, issues: [{ code: "VALIDATION_FAILED", message: "scorers must be a JSON list of scorer objects", path: [] }] };
  if (value.length === 0) return { ok: false, issues: [{ code: "VALIDATION_FAILED", message: "give at least one scorer", path: [] }] };
  if (value.length > SCORER_LIMITS.maxScorers) {
    return { ok: false, issues: [{ code: "LIMIT_EXCEEDED", message: `${value.length} scorers; the limit is ${SCORER_LIMITS.maxScorers}`, path: [] }] };
  }
  const issues: ScorerIssue[] = [];
  const scorers: ScorerSpec[] = [];
  const ids = new Set<string>();
  value.forEach((item, index) => {
    const parsed = scorerShape.safeParse(item);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) issues.push({ code: shapeCode(issue), message: issue.message, path: [index, ...issue.path.map(keyOf)] });
      return;
    }
    const spec = parsed.data as ScorerSpec;
    if (ids.has(spec.id)) issues.push({ code: "VALIDATION_FAILED", message: `scorer id "${spec.id}" is used twice`, path: [index, "id"] });
    ids.add(spec.id);
    const problems = settingProblems(spec);
    issues.push(...problems.map((problem) => ({ ...problem, path: [index, ...problem.path] })));
    if (problems.length === 0) scorers.push(spec);
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, scorers };
}

function settingProblems(spec: ScorerSpec): ScorerIssue[] {
  switch (spec.type) {
    case "regex": {
      const problem = patternProblem(spec.pattern);
      return problem ? [{ code: "PATTERN_INVALID", message: problem, path: ["pattern"] }] : [];
    }
    case "json_schema":
      return schemaSettingProblems(spec.schema);
    case "judge": {
      // The judge's params are a model node's params, held to the same limits.
      const problem = spec.params === undefined ? null : checkParams(spec.params, ["params"], DOCUMENT);
      return problem ? [{ code: problem.code === "LIMIT_EXCEEDED" ? "LIMIT_EXCEEDED" : "VALIDATION_FAILED", message: `${problem.path} ${problem.message}`, path: [problem.path] }] : [];
    }
    default:
      return [];
  }
}

function schemaSettingProblems(schema: unknown): ScorerIssue[] {
  const limits = { maxDepth: SCORER_LIMITS.maxSchemaDepth, maxEntries: SCORER_LIMITS.maxSchemaEntries, maxStringLength: DOCUMENT.maxParamsStringLength };
  const limit = findJsonLimitProblem(schema, limits);
  if (limit) return [{ code: limit.kind === "limit" ? "LIMIT_EXCEEDED" : "VALIDATION_FAILED", message: `schema ${limit.message}`, path: ["schema", ...limit.path.map(keyOf)] }];
  const patterns = schemaPatterns(schema, "schema").flatMap(({ field, source }) => {
    const problem = patternProblem(source);
    return problem ? [{ code: "PATTERN_INVALID" as const, message: problem, path: [field] }] : [];
  });
  if (patterns.length > 0) return patterns;
  const unusable = schemaProblem(schema);
  return unusable ? [{ code: "VALIDATION_FAILED", message: `schema ${unusable}`, path: ["schema"] }] : [];
}

function shapeCode(issue: z.core.$ZodIssue): ScorerIssueCode {
  // A text or list over its length; a number out of range (a threshold of 2) is a wrong value, not a limit.
  return issue.code === "too_big" && (issue.origin === "string" || issue.origin === "array") ? "LIMIT_EXCEEDED" : "VALIDATION_FAILED";
}

function keyOf(key: PropertyKey): string | number {
  return typeof key === "symbol" ? String(key) : key;
}
