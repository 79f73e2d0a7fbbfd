/**
 * Text PostgreSQL cannot store: the NUL character (refused in text and jsonb, SQLSTATE 22P05/22021) and
 * UTF-16 surrogates without their pair (not Unicode, so not encodable as UTF-8). Every text and id a
 * client sends is checked for them before anything else happens, and every JSON value for its nesting
 * depth (WEFT_MAX_VALUE_DEPTH, SPEC-V3 §1).
 */

export interface UnstorableText {
  /** VALIDATION_FAILED (text that cannot be stored) or VALUE_TOO_DEEP (a value nested past the limit). */
  code: "VALIDATION_FAILED" | "VALUE_TOO_DEEP";
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

/** A string that cannot be stored, reported at `path`. */
export function unstorableTextAt(text: string, path: readonly string[]): UnstorableText | null {
  const reason = unstorableReason(text);
  return reason ? { code: "VALIDATION_FAILED", path: [...path], message: `${nameOf(path)} ${reason}` } : null;
}

/** Nesting is counted as SPEC-V3 §1 counts it: a scalar is 0 levels deep, `[]` and `{}` are 1, `[[1]]` 2. */
export function tooDeep(path: readonly string[], maxDepth: number): UnstorableText {
  return {
    code: "VALUE_TOO_DEEP",
    path: [...path],
    message: `${nameOf(path)} is nested deeper than ${maxDepth} levels (WEFT_MAX_VALUE_DEPTH)`,
  };
}

/** A position in the checked value: its key and its parent's, so a path is built only when reported. */
interface Position {
  key: string;
  parent: Position | null;
}

interface Frame {
  value: unknown;
  at: Position | null;
  /** Containers from the root down to and including this value. */
  depth: number;
}

/**
 * The first string (or object key) in a value that cannot be stored, or the value itself when it nests
 * deeper than `maxDepth`: input objects, lists and JSON values alike, searched depth first in document
 * order. An explicit stack, never recursion, and the depth is refused before anything below it is
 * looked at, so a hostile value (10,000 levels deep) costs no more than the limit. A VALUE_TOO_DEEP
 * refusal names the checked value's own path (the argument), not a path as long as the limit.
 */
export function findUnstorableText(value: unknown, path: readonly string[], maxDepth: number): UnstorableText | null {
  const stack: Frame[] = [{ value, at: null, depth: 0 }];
  const pathOf = (at: Position | null): string[] => {
    const keys: string[] = [];
    for (let node = at; node; node = node.parent) keys.push(node.key);
    return [...path, ...keys.reverse()];
  };
  while (stack.length > 0) {
    const { value: current, at, depth: above } = stack.pop()!;
    if (typeof current === "string") {
      const found = unstorableTextAt(current, pathOf(at));
      if (found) return found;
      continue;
    }
    if (current === null || typeof current !== "object" || current instanceof Date) continue;
    const depth = above + 1;
    if (depth > maxDepth) return tooDeep(path, maxDepth);
    const isList = Array.isArray(current);
    const entries: [string, unknown][] = isList ? current.map((item, index) => [String(index), item]) : Object.entries(current);
    for (const [key] of isList ? [] : entries) {
      const keyReason = unstorableReason(key);
      if (keyReason) {
        const where = pathOf(at);
        return { code: "VALIDATION_FAILED", path: where, message: `a key of ${nameOf(where)} ${keyReason}` };
      }
    }
    // Pushed in reverse so the first entry is looked at first (document order).
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [key, item] = entries[index]!;
      stack.push({ value: item, at: { key, parent: at }, depth });
    }
  }
  return null;
}

function nameOf(path: readonly string[]): string {
  return path.join(".") || "the value";
}
