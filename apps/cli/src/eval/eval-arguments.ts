import { readScorers as checkScorers, SCORER_LIMITS, SCORER_TYPES, type ScorerIssue, type ScorerSpec } from "@weft/engine";
import { UsageError } from "../usage.js";

/** `--min`: every scorer (`scorer: null`) or one must pass on at least `rate` of the rows. */
export interface Minimum {
  scorer: string | null;
  rate: number;
}

/** One scorer's JSON text (a judge's rubric is the longest setting); a file holds at most the limit of them. */
const MAX_SPEC_CHARS = 64 * 1024;

/** A scorer as the command line gave it, and where, to name it in a problem. */
interface GivenScorer {
  where: string;
  value: unknown;
}

/**
 * `--scorer SPEC` (repeatable) and `--scorers FILE`: a SPEC is a scorer type alone (`exact`: id and
 * type both "exact") or one scorer's JSON object; the file is a JSON list of scorer objects. The file's
 * scorers come first. Checked as the API checks them (the engine's readScorers), every problem at once,
 * before anything is uploaded.
 */
export function readScorers(specs: readonly string[], fileText: string | undefined, fileName = "--scorers"): ScorerSpec[] {
  const problems: string[] = [];
  const given: GivenScorer[] = [];
  if (fileText !== undefined) {
    const list = parseJson(fileText, fileName, problems);
    if (Array.isArray(list)) list.forEach((value, index) => given.push({ where: `${fileName}[${index}]`, value: withDefaultId(value) }));
    else if (list !== undefined) problems.push(`${fileName} must hold a JSON list of scorers`);
  }
  for (const spec of specs) {
    const scorer = readSpec(spec, problems);
    if (scorer) given.push(scorer);
  }
  if (problems.length === 0 && given.length === 0) throw new UsageError("eval needs at least one scorer: --scorer exact, --scorer '{\"id\": …, \"type\": …}' or --scorers FILE");
  const read = checkScorers(given.map((scorer) => scorer.value));
  if (!read.ok) problems.push(...read.issues.map((issue) => describeIssue(issue, given)));
  if (problems.length === 1) throw new UsageError(problems[0]!);
  if (problems.length > 1) throw new UsageError(`${problems.length} problems with the scorers:\n${problems.map((problem) => `  ${problem}`).join("\n")}`);
  return read.ok ? read.scorers : [];
}

function readSpec(spec: string, problems: string[]): GivenScorer | null {
  const text = spec.trim();
  const where = `--scorer ${clip(text)}`;
  if (text.startsWith("{")) {
    const value = parseJson(text, where, problems);
    return value === undefined ? null : { where, value: withDefaultId(value) };
  }
  if ((SCORER_TYPES as readonly string[]).includes(text)) return { where, value: { id: text, type: text } };
  problems.push(`${where}: give a scorer type (${SCORER_TYPES.join(", ")}) or a scorer's JSON object`);
  return null;
}

/** The id defaults to the type, as for a bare type name. */
function withDefaultId(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const { id, type } = value as { id?: unknown; type?: unknown };
  return id === undefined && typeof type === "string" ? { ...value, id: type } : value;
}

/** `CODE: where.field: message`, where naming the flag or file entry the scorer came from. */
function describeIssue(issue: ScorerIssue, given: readonly GivenScorer[]): string {
  const [index, ...field] = issue.path;
  const scorer = typeof index === "number" ? given[index] : undefined;
  const where = scorer ? [scorer.where, ...field].join(".") : "the scorers";
  return `${issue.code}: ${where}: ${issue.message}`;
}

/** undefined (and a problem) when the text is too long or not JSON. */
function parseJson(text: string, where: string, problems: string[]): unknown {
  const max = MAX_SPEC_CHARS * SCORER_LIMITS.maxScorers;
  if (text.length > max) {
    problems.push(`${where}: over ${max} characters`);
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    problems.push(`${where}: not JSON (${(error as Error).message})`);
    return undefined;
  }
}

/**
 * `--min RATE` (every scorer) or `--min SCORER=RATE`; RATE is a share of the rows that must pass, as
 * `0.9` or `90%`. A scorer's own minimum wins over the general one.
 */
export function readMinimums(texts: readonly string[], scorers: readonly { id: string }[]): Minimum[] {
  const ids = new Set(scorers.map((scorer) => scorer.id));
  return texts.map((text) => {
    const split = text.lastIndexOf("=");
    const scorer = split < 0 ? null : text.slice(0, split).trim();
    if (scorer !== null && !ids.has(scorer)) {
      throw new UsageError(`--min ${clip(text)}: no scorer "${clip(scorer)}" (scorers: ${[...ids].join(", ")})`);
    }
    return { scorer, rate: readRate(text.slice(split + 1).trim(), text) };
  });
}

function readRate(text: string, whole: string): number {
  const percent = text.endsWith("%");
  const number = Number(percent ? text.slice(0, -1) : text);
  const rate = percent ? number / 100 : number;
  if (text === "" || text === "%" || !Number.isFinite(rate) || rate < 0 || rate > 1) {
    throw new UsageError(`--min ${clip(whole)}: the rate is a share of rows from 0 to 1 (0.9) or a percentage (90%)`);
  }
  return rate;
}

/** The minimum each scorer must meet: its own `--min SCORER=…`, else the last general `--min`; none: null. */
export function minimumOf(scorer: string, minimums: readonly Minimum[]): number | null {
  const own = minimums.filter((minimum) => minimum.scorer === scorer).at(-1);
  return (own ?? minimums.filter((minimum) => minimum.scorer === null).at(-1))?.rate ?? null;
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
