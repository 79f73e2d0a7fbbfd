import { UsageError } from "../usage.js";

/** A scorer as startExperiment takes it: `{"id", "type", …settings, "threshold"?}` (checked by the API). */
export type ScorerSpec = Record<string, unknown> & { id: string };

/** `--min`: every scorer (`scorer: null`) or one must pass on at least `rate` of the rows. */
export interface Minimum {
  scorer: string | null;
  rate: number;
}

const SCORER_TYPE = /^[a-z_]{1,32}$/;
/** As many scorers as an experiment takes (docs/evaluations.md). */
const MAX_SCORERS = 20;
const MAX_SPEC_CHARS = 64 * 1024;

/**
 * `--scorer SPEC` (repeatable) and `--scorers FILE`: a SPEC is a scorer type alone (`exact`: id and
 * type both "exact") or one scorer's JSON object; the file is a JSON list of scorer objects. The file's
 * scorers come first. The API checks each scorer's settings.
 */
export function readScorers(specs: readonly string[], fileText: string | undefined, fileName = "--scorers"): ScorerSpec[] {
  const scorers: ScorerSpec[] = [];
  if (fileText !== undefined) {
    const list = parseJson(fileText, fileName);
    if (!Array.isArray(list)) throw new UsageError(`${fileName} must hold a JSON list of scorers`);
    list.forEach((item, index) => scorers.push(asScorer(item, `${fileName}[${index}]`)));
  }
  for (const spec of specs) scorers.push(readScorer(spec));
  if (scorers.length === 0) throw new UsageError("eval needs at least one scorer: --scorer exact, --scorer '{\"id\": …, \"type\": …}' or --scorers FILE");
  if (scorers.length > MAX_SCORERS) throw new UsageError(`at most ${MAX_SCORERS} scorers (given ${scorers.length})`);
  return scorers;
}

function readScorer(spec: string): ScorerSpec {
  const text = spec.trim();
  if (text.startsWith("{")) return asScorer(parseJson(text, `--scorer ${clip(text)}`), `--scorer ${clip(text)}`);
  if (!SCORER_TYPE.test(text)) throw new UsageError(`--scorer ${clip(text)}: give a scorer type (exact, contains, …) or a scorer's JSON object`);
  return { id: text, type: text };
}

function asScorer(value: unknown, where: string): ScorerSpec {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new UsageError(`${where}: a scorer is a JSON object {"id", "type", …}`);
  const id = (value as { id?: unknown }).id;
  const type = (value as { type?: unknown }).type;
  if (typeof type !== "string") throw new UsageError(`${where}: a scorer needs a "type"`);
  // The id defaults to the type, as for a bare type name; the API checks the id's form.
  return { ...(value as Record<string, unknown>), id: typeof id === "string" ? id : type };
}

function parseJson(text: string, where: string): unknown {
  if (text.length > MAX_SPEC_CHARS * MAX_SCORERS) throw new UsageError(`${where}: over ${MAX_SPEC_CHARS * MAX_SCORERS} characters`);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${where}: not JSON (${(error as Error).message})`);
  }
}

/**
 * `--min RATE` (every scorer) or `--min SCORER=RATE`; RATE is a share of the rows that must pass, as
 * `0.9` or `90%`. A scorer's own minimum wins over the general one.
 */
export function readMinimums(texts: readonly string[], scorers: readonly ScorerSpec[]): Minimum[] {
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
