import { limitError } from "./run-limits.js";

/**
 * How deeply a JSON text nests, read from the text before JSON.parse builds anything: brackets outside
 * strings, one pass, no recursion. JSON.parse builds a value 5,000 levels deep without complaint, and
 * everything after it (JSON.stringify, a schema validator, a comparison) recurses and overflows, so a
 * text over the limit is refused before it is parsed. Brackets that close more than they opened (prose
 * around the JSON) count as level 0.
 */
export function jsonTextDepth(text: string, stopAbove = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if ((code === CLOSE_BRACE || code === CLOSE_BRACKET) && depth > 0) depth -= 1;
  }
  return deepest;
}

/** JSON.parse, refused with VALUE_TOO_DEEP when the text nests deeper than `maxDepth`; syntax errors throw as JSON.parse's. */
export function parseJsonWithin(text: string, maxDepth: number, what = "the JSON"): unknown {
  if (jsonTextDepth(text, maxDepth) > maxDepth) throw tooDeep(what, maxDepth);
  return JSON.parse(text);
}

export function tooDeep(what: string, maxDepth: number) {
  return limitError("VALUE_TOO_DEEP", `${what} is nested deeper than ${maxDepth} levels (WEFT_MAX_VALUE_DEPTH)`);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
