import { jsonTextDepth, tooDeep } from "../limits/json-text-depth.js";
import { DEFAULT_RUN_LIMITS } from "../limits/run-limits.js";
import { findBalancedObjects } from "./json-object-scanner.js";
import { ResultParseError } from "./result-parse.error.js";

/** What every node produces (seed 000, ResultParser): a line for the UI and the value passed on. */
export interface ParsedResult {
  description: string;
  output: string;
}

const REQUIRED_KEYS = ["description", "output"] as const;
const FENCED_BLOCK = /```[ \t]*(?:json|JSON)?[ \t]*\r?\n?([\s\S]*?)```/g;

/**
 * Extracts `description` and `output` from a reply shaped `{ "description": …, "output": … }`.
 *
 * Tolerated: the object alone, inside a fenced ```json block, or with prose around it. Refused, never
 * guessed: a reply with no parseable object, several objects that disagree, a missing key. Non-string
 * values are JSON-encoded so the next node always receives text.
 */
export function parseResult(reply: string, maxDepth: number = DEFAULT_RUN_LIMITS.maxValueDepth): ParsedResult {
  if (reply.trim() === "") throw new ResultParseError("the reply is empty", reply);
  const candidates = findCandidates(reply, maxDepth);
  if (candidates.length === 0) {
    throw new ResultParseError('no JSON object was found (expected {"description": …, "output": …})', reply);
  }
  const distinct = dedupe(candidates);
  if (distinct.length > 1) {
    throw new ResultParseError(`the reply holds ${distinct.length} different JSON objects; expected exactly one`, reply);
  }
  return readKeys(distinct[0] as Record<string, unknown>, reply);
}

/** The whole reply if it is an object; else its fenced blocks; else balanced objects in the prose. */
function findCandidates(reply: string, maxDepth: number): Record<string, unknown>[] {
  const parseObject = (text: string) => parseObjectWithin(text, maxDepth);
  const whole = parseObject(reply.trim());
  if (whole) return [whole];
  const fenced = [...reply.matchAll(FENCED_BLOCK)].map((match) => parseObject((match[1] ?? "").trim()));
  const fencedObjects = fenced.filter((value) => value !== null);
  if (fencedObjects.length > 0) return fencedObjects;
  return findBalancedObjects(reply)
    .map(parseObject)
    .filter((value) => value !== null);
}

/** A candidate nested deeper than the limit is refused (VALUE_TOO_DEEP) before JSON.parse builds it. */
function parseObjectWithin(text: string, maxDepth: number): Record<string, unknown> | null {
  if (!text.startsWith("{")) return null;
  if (jsonTextDepth(text, maxDepth) > maxDepth) throw tooDeep("the model's reply", maxDepth);
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function dedupe(objects: Record<string, unknown>[]): Record<string, unknown>[] {
  const seen = new Map<string, Record<string, unknown>>();
  for (const object of objects) seen.set(JSON.stringify(object), object);
  return [...seen.values()];
}

function readKeys(object: Record<string, unknown>, reply: string): ParsedResult {
  const missing = REQUIRED_KEYS.filter((key) => !Object.hasOwn(object, key));
  if (missing.length > 0) {
    const names = missing.map((key) => `"${key}"`).join(" and ");
    throw new ResultParseError(`the JSON object has no ${names} key`, reply);
  }
  return { description: asText(object.description), output: asText(object.output) };
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The text nodes' path through the parser (seed 000, node execution 1-3/1-4). */
export function parseTextContent(content: string): ParsedResult {
  return parseResult(JSON.stringify({ description: content, output: content }));
}
