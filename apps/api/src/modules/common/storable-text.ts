/**
 * Text PostgreSQL cannot store: the NUL character (refused in text and jsonb, SQLSTATE 22P05/22021) and
 * UTF-16 surrogates without their pair (not Unicode, so not encodable as UTF-8). Every text and id a
 * client sends is checked for them before anything else happens.
 */

export interface UnstorableText {
  /** Where in the checked value: argument or field names and list indexes, as strings. */
  path: string[];
  message: string;
}

// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why this string cannot be stored, or null when it can. */
export function unstorableReason(text: string): string | null {
  const nul = text.indexOf("\u0000");
  if (nul >= 0) return `contains a NUL character (U+0000) at position ${nul}, which cannot be stored`;
  const lone = LONE_SURROGATE.exec(text);
  if (lone) {
    const code = lone[0].charCodeAt(0).toString(16).toUpperCase();
    return `contains an unpaired surrogate (U+${code}) at position ${lone.index}, which is not valid Unicode`;
  }
  return null;
}

/**
 * The first string (or object key) in a value that cannot be stored, searched depth first: arguments,
 * input objects, lists and JSON values alike.
 */
export function findUnstorableText(value: unknown, path: readonly string[] = []): UnstorableText | null {
  if (typeof value === "string") {
    const reason = unstorableReason(value);
    return reason ? { path: [...path], message: `${path.join(".") || "the value"} ${reason}` } : null;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findUnstorableText(item, [...path, String(index)]);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    for (const [key, item] of Object.entries(value)) {
      const keyReason = unstorableReason(key);
      if (keyReason) return { path: [...path], message: `a key of ${path.join(".") || "the value"} ${keyReason}` };
      const found = findUnstorableText(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}
