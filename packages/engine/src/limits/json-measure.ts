/**
 * The size a value takes as JSON (UTF-8 bytes, as JSON.stringify would write it) and how deeply it
 * nests, measured without serializing and without recursion: an explicit stack as deep as the value,
 * stopped as soon as a limit is passed, so a hostile value (5,000 levels deep, or a ladder of shared
 * references that would serialize to gigabytes) costs no more than the limits. JSON.stringify itself
 * recurses and throws RangeError past a few thousand levels; nothing may hand it an unmeasured value.
 */
export interface JsonMeasure {
  /** Bytes counted so far: the exact size when `problem` is null. */
  bytes: number;
  /** Deepest nesting seen (a scalar is 0, `[]` is 1, `[[1]]` is 2). */
  depth: number;
  /** The first limit passed, or a value JSON cannot hold (a bigint, a Map, a class instance…). */
  problem: null | "depth" | "bytes" | "notJson";
  /** With notJson: what the value was. */
  what?: string;
}

export interface MeasureLimits {
  maxDepth?: number;
  maxBytes?: number;
}

const CONTAINER = -2;
const NOT_JSON = -3;

/*
 * The walk's stack, as parallel arrays kept between calls (a measurement is synchronous and never
 * re-entered): no allocation per level, which matters because every event of every run is measured.
 */
const containers: unknown[] = [];
const keyLists: Array<readonly string[] | null> = [];
const positions: number[] = [];
const counts: number[] = [];

export function measureJson(value: unknown, limits: MeasureLimits = {}): JsonMeasure {
  const bytes = jsonBytes(value, limits.maxBytes ?? Infinity, limits.maxDepth ?? Infinity);
  if (bytes >= 0) return { bytes, depth: walked.depth, problem: null };
  const problem = bytes === OVER_DEPTH ? "depth" : bytes === OVER_BYTES ? "bytes" : "notJson";
  return { bytes: walked.bytes, depth: walked.depth, problem, ...(problem === "notJson" ? { what: walked.what } : {}) };
}

export const OVER_DEPTH = -1;
export const OVER_BYTES = -2;
export const NOT_JSON_VALUE = -3;

/** What the last jsonBytes walk saw (a module variable: no result object per call, and walks are never re-entered). */
const walked = { bytes: 0, depth: 0, what: "" };

function stopWalk(result: number, bytes: number, depth: number, what = ""): number {
  walked.bytes = bytes;
  walked.depth = depth;
  walked.what = what;
  return result;
}

/**
 * measureJson without the result object, for hot paths: the bytes, or OVER_DEPTH, OVER_BYTES or
 * NOT_JSON_VALUE (negative).
 */
export function jsonBytes(value: unknown, maxBytes = Infinity, maxDepth = Infinity): number {
  let top = -1;
  let bytes = 0;
  let depth = 0;
  let current: unknown = value;
  let pending = true;
  try {
    for (;;) {
      if (pending) {
        pending = false;
        const size = scalarBytes(current);
        if (size >= 0) bytes += size;
        else if (size === NOT_JSON) return stopWalk(NOT_JSON_VALUE, bytes, depth, describe(current));
        else {
          if (top + 2 > maxDepth) return stopWalk(OVER_DEPTH, bytes, top + 2);
          const isArray = Array.isArray(current);
          if (!isArray && !isPlainObject(current)) return stopWalk(NOT_JSON_VALUE, bytes, depth, describe(current));
          top += 1;
          containers[top] = current;
          keyLists[top] = isArray ? null : Object.keys(current as object);
          positions[top] = 0;
          counts[top] = 0;
          if (top + 1 > depth) depth = top + 1;
          bytes += 2;
        }
        if (bytes > maxBytes) return stopWalk(OVER_BYTES, bytes, depth);
      }
      if (top < 0) return stopWalk(bytes, bytes, depth);
      const keys = keyLists[top];
      const container = containers[top] as Record<string, unknown> & unknown[];
      const length = keys ? keys.length : container.length;
      const position = positions[top]!;
      if (position >= length) {
        containers[top] = undefined;
        keyLists[top] = null;
        top -= 1;
        continue;
      }
      positions[top] = position + 1;
      const key = keys ? keys[position]! : undefined;
      const item = key === undefined ? container[position] : container[key];
      const omitted = item === undefined || typeof item === "function" || typeof item === "symbol";
      if (key !== undefined && omitted) continue;
      if (counts[top]! > 0) bytes += 1;
      counts[top]! += 1;
      if (key !== undefined) bytes += jsonStringBytes(key) + 1;
      if (key === undefined && omitted) bytes += 4; // JSON.stringify writes null for them in arrays
      else {
        current = item;
        pending = true;
      }
    }
  } finally {
    for (let level = 0; level <= top; level += 1) {
      containers[level] = undefined;
      keyLists[level] = null;
    }
  }
}

function scalarBytes(value: unknown): number {
  switch (typeof value) {
    case "string":
      return jsonStringBytes(value);
    case "number":
      return numberBytes(value);
    case "boolean":
      return value ? 4 : 5;
    case "undefined":
    case "function":
    case "symbol":
      return 0; // omitted by JSON.stringify (as a property) or written null (in arrays: counted by the caller)
    case "bigint":
      return NOT_JSON;
    default:
      return value === null ? 4 : CONTAINER;
  }
}

/** Digits of a number as JSON writes it; whole numbers without making a string. */
export function numberBytes(value: number): number {
  if (!Number.isFinite(value)) return 4; // written null
  if (Number.isSafeInteger(value) && !Object.is(value, -0)) {
    let digits = value < 0 ? 2 : 1;
    for (let rest = Math.abs(value); rest >= 10; rest = Math.floor(rest / 10)) digits += 1;
    return digits;
  }
  return String(value).length;
}

function isPlainObject(value: unknown): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function describe(value: unknown): string {
  if (typeof value === "bigint") return "a bigint";
  const name = (value as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  return typeof name === "string" ? `a ${name}` : `a value of type ${typeof value}`;
}

/** Characters JSON writes as themselves, one byte each: printable ASCII but `"` and `\`. */
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

const SHORT_TEXT = 64;

/** UTF-8 bytes of a string as JSON writes it, quotes and escapes included. */
export function jsonStringBytes(text: string): number {
  // Short texts (keys, ids, codes) are scanned directly; long ones are first tried by the native matcher.
  if (text.length > SHORT_TEXT && PLAIN_ASCII.test(text)) return text.length + 2;
  let bytes = 2;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      if (code >= 0x20) bytes += code === 0x22 || code === 0x5c ? 2 : 1;
      else bytes += code === 8 || code === 9 || code === 10 || code === 12 || code === 13 ? 2 : 6;
    } else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        bytes += 4;
        i += 1;
      } else bytes += 6; // a lone surrogate is written \udxxx
    } else if (code >= 0xdc00 && code <= 0xdfff) bytes += 6;
    else bytes += 3;
  }
  return bytes;
}
