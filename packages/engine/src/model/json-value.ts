/** Values that flow on edges, sit in state channels and are produced by nodes (SPEC-V2 §2). */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * A value as text, for prompts and for the text columns of node runs: a string stays itself, anything
 * else is its JSON. The seed-000 node types exchange strings, so for them this is the identity.
 */
export function jsonText(value: JsonValue | undefined): string {
  if (value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}
