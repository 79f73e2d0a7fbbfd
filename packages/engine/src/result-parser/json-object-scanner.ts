/**
 * Finds the outermost balanced `{ … }` spans in free text, respecting JSON strings and escapes, so
 * prose around a JSON object (or braces inside its string values) does not confuse the ResultParser.
 * Braces in prose only matter once a `{` has opened a candidate; quotes outside candidates are ignored.
 */

/**
 * A `{` that never closes makes the scan restart at the next `{`. Each such restart rescans the rest of
 * the text, so the number of restarts is bounded to keep pathological replies linear-ish.
 */
export const MAX_UNCLOSED_RESTARTS = 32;

export function findBalancedObjects(text: string): string[] {
  const spans: string[] = [];
  let restarts = 0;
  let position = text.indexOf("{");
  while (position !== -1) {
    const end = findClosingBrace(text, position);
    if (end === -1) {
      restarts += 1;
      if (restarts > MAX_UNCLOSED_RESTARTS) break;
      position = text.indexOf("{", position + 1);
      continue;
    }
    spans.push(text.slice(position, end + 1));
    position = text.indexOf("{", end + 1);
  }
  return spans;
}

/** Index of the `}` that closes the `{` at `start`, or -1 when the text ends first. */
function findClosingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === BACKSLASH) i += 1;
      else if (char === QUOTE) inString = false;
      continue;
    }
    if (char === QUOTE) inString = true;
    else if (char === OPEN) depth += 1;
    else if (char === CLOSE) {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = 0x7b;
const CLOSE = 0x7d;
