/**
 * The scorers an experiment or a gate takes: a JSON list the API checks (SPEC-V3 §4). The form keeps it
 * as text so every type and setting can be written; these helpers add a type's starting object and read
 * the text back. The API stays the judge of each scorer's settings; this only refuses what is not a list.
 */
import type { ScorerType } from "@weft/engine";

/** The list the forms start with: the row's expected value, compared exactly. */
export const DEFAULT_SCORERS_TEXT = JSON.stringify([{ id: "exact", type: "exact" }], null, 2);

/** Settings each type needs to be useful, for the user to edit (the API documents the rest). */
const STARTING_SETTINGS: Record<ScorerType, Record<string, unknown>> = {
  exact: {},
  contains: {},
  regex: { pattern: "" },
  json_schema: { schema: { type: "object" } },
  similarity: { threshold: 0.8 },
  judge: { provider: "offline", model: "scripted", rubric: "", threshold: 0.7 },
};

export type ScorerListReading = { ok: true; scorers: unknown[] } | { ok: false; problem: "notJson" | "notList" | "empty"; message?: string };

/** The text as a list of scorers, or why it is not one. */
export function readScorerList(text: string): ScorerListReading {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: "notJson", message: error instanceof Error ? error.message : String(error) };
  }
  if (!Array.isArray(parsed)) return { ok: false, problem: "notList" };
  if (parsed.length === 0) return { ok: false, problem: "empty" };
  return { ok: true, scorers: parsed };
}

/** The text with a scorer of this type added under a free id; unchanged when the text is not a list. */
export function addScorer(text: string, type: ScorerType): string {
  const reading = readScorerList(text);
  const scorers = reading.ok ? reading.scorers : reading.problem === "empty" ? [] : null;
  if (!scorers) return text;
  const taken = new Set(scorers.map((scorer) => (scorer !== null && typeof scorer === "object" ? (scorer as { id?: unknown }).id : undefined)));
  let id: string = type;
  for (let n = 2; taken.has(id); n += 1) id = `${type}-${n}`;
  return JSON.stringify([...scorers, { id, type, ...STARTING_SETTINGS[type] }], null, 2);
}

/** The scorers' ids, in order, for column headings; ids that are not text are left out. */
export function scorerIds(scorers: unknown): string[] {
  if (!Array.isArray(scorers)) return [];
  return scorers.flatMap((scorer) => {
    const id = scorer !== null && typeof scorer === "object" ? (scorer as { id?: unknown }).id : undefined;
    return typeof id === "string" ? [id] : [];
  });
}
