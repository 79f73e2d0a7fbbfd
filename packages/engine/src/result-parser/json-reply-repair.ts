import { WeftError } from "../model/errors.js";
import type { JsonValue } from "../model/json-value.js";
import { schemaMismatch } from "../schema/json-schema.check.js";
import { parseJsonReply } from "./json-reply.parser.js";
import { ResultParseError } from "./result-parse.error.js";

export interface JsonReplyOptions {
  /** WEFT_MAX_VALUE_DEPTH: a reply nesting deeper is refused before it is parsed. */
  maxDepth: number;
  /** Parse repair (WEFT_PARSE_REPAIR): ask once more when the reply does not parse or match. */
  repair: boolean;
  /** Told before the repair is asked for, with what was wrong (a node emits its PARSE_REPAIR warning). */
  onRepair?: (reason: string) => void;
}

/**
 * The one way a model's JSON reply is read (SPEC-V2 §3): the reply is parsed and checked against
 * `schema`; when it does not parse or match and repair is on, the model is asked once more with the
 * original prompt, the problem and the schema. `ask` makes one call and returns the reply's text (the
 * node executors' callModel, the judge scorer's provider call). Fails with RESULT_PARSE_ERROR or
 * SCHEMA_MISMATCH.
 */
export async function askForJson(ask: (prompt: string) => Promise<string>, prompt: string, schema: JsonValue, options: JsonReplyOptions): Promise<JsonValue> {
  const first = readJsonReply(await ask(prompt), schema, options.maxDepth);
  if (first.ok) return first.value;
  if (!options.repair) throw first.error;
  options.onRepair?.(first.reason);
  const second = readJsonReply(await ask(schemaRepairPrompt(prompt, first.reason, schema)), schema, options.maxDepth);
  if (second.ok) return second.value;
  throw second.error;
}

/** A reply read: its value, or why it cannot be used (`reason`, for the model) and the node's error. */
export type JsonReplyReading = { ok: true; value: JsonValue } | { ok: false; reason: string; error: WeftError };

/** Parses a reply within the depth limit and checks it against `schema` (askForJson's one reading; an agent's final answer's too). */
export function readJsonReply(reply: string, schema: JsonValue, maxDepth: number): JsonReplyReading {
  let value: JsonValue;
  try {
    value = parseJsonReply(reply, maxDepth);
  } catch (error) {
    if (!(error instanceof ResultParseError)) throw error;
    return { ok: false, reason: error.reason, error };
  }
  const mismatch = schemaMismatch(schema, value);
  if (mismatch === null) return { ok: true, value };
  const error = new WeftError("SCHEMA_MISMATCH", `the reply does not match the node's schema: ${mismatch}`, {
    audience: "operational",
    details: { mismatch },
  });
  return { ok: false, reason: `it does not match the schema: ${mismatch}`, error };
}

export function schemaRepairPrompt(prompt: string, reason: string, schema: JsonValue): string {
  return `${prompt}\n\n---\nYour previous reply could not be used: ${reason}.\nReply with only JSON that matches this JSON Schema:\n${JSON.stringify(schema)}`;
}
