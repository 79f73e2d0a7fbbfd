/**
 * The scorer types (SPEC-V3 §4), on their own: the web's scorer buttons list them without carrying the
 * checker (zod, the RE2 and JSON Schema modules) that scorer-spec.ts brings.
 */
export const SCORER_TYPES = ["exact", "contains", "regex", "json_schema", "similarity", "judge"] as const;
export type ScorerType = (typeof SCORER_TYPES)[number];
