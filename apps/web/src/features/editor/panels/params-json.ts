/** Parsing the params editor's text: an empty box clears the params; anything else must be a JSON object. */
export type ParamsParse =
  | { ok: true; value: Record<string, unknown> | null }
  | { ok: false; error: { kind: "notJson"; message: string } | { kind: "notObject" } };

export function parseParams(text: string): ParamsParse {
  if (!text.trim()) return { ok: true, value: null };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: { kind: "notJson", message: (error as Error).message } };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { ok: false, error: { kind: "notObject" } };
  return { ok: true, value: value as Record<string, unknown> };
}

export function formatParams(params: Record<string, unknown> | null | undefined): string {
  return params && Object.keys(params).length > 0 ? JSON.stringify(params, null, 2) : "";
}
