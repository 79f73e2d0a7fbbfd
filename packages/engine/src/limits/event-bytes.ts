import { jsonBytes, jsonStringBytes, numberBytes } from "./json-measure.js";

/**
 * The serialized size of a run event, for the run's byte budget. Every event of every run is counted,
 * so this is a hot path: the event's own shape (its fields, `details`, `usage`, lists of ids: levels we
 * define) is walked inline with for…in and no allocation, and only nested values (outputs, state,
 * chunks…) go through jsonBytes's iterative walker, which alone sees untrusted nesting. Returns Infinity
 * once past `maxBytes`.
 */
export function eventBytes(event: object, maxBytes: number): number {
  const bytes = shapeBytes(event, SHAPE_LEVELS, maxBytes);
  return bytes > maxBytes ? Infinity : bytes;
}

/** The event object and the objects directly in it (details, error). */
const SHAPE_LEVELS = 2;

/** Ids, codes, times and short messages: counted by length (escapes cannot matter to a budget of megabytes). */
const SHORT_TEXT = 64;

function shapeBytes(value: unknown, levels: number, maxBytes: number): number {
  switch (typeof value) {
    case "string":
      return value.length <= SHORT_TEXT ? value.length + 2 : jsonStringBytes(value);
    case "number":
      return numberBytes(value);
    case "boolean":
      return value ? 4 : 5;
    case "object":
      if (value === null) return 4;
      if (Array.isArray(value)) return listBytes(value, maxBytes);
      if (levels > 0 && Object.getPrototypeOf(value) === Object.prototype) return fieldsBytes(value as Record<string, unknown>, levels, maxBytes);
      return nested(value, maxBytes);
    default:
      return nested(value, maxBytes);
  }
}

function fieldsBytes(object: Record<string, unknown>, levels: number, maxBytes: number): number {
  let bytes = 2;
  let first = true;
  const keys = Object.keys(object);
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index]!;
    const item = object[key];
    if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
    // The event's own field names are ASCII identifiers: quotes and a colon, nothing to escape.
    bytes += (first ? 0 : 1) + key.length + 3;
    first = false;
    bytes += shapeBytes(item, levels - 1, maxBytes - bytes);
    if (bytes > maxBytes) return Infinity;
  }
  return bytes;
}

/** Lists of texts (inputs, node ids, ports) inline; a list holding containers goes to the walker whole. */
function listBytes(list: readonly unknown[], maxBytes: number): number {
  let bytes = list.length > 0 ? 1 + list.length : 2;
  for (const item of list) {
    if (typeof item === "string") bytes += item.length <= SHORT_TEXT ? item.length + 2 : jsonStringBytes(item);
    else if (typeof item === "number") bytes += numberBytes(item);
    else return nested(list, maxBytes);
    if (bytes > maxBytes) return Infinity;
  }
  return bytes;
}

function nested(value: unknown, maxBytes: number): number {
  const bytes = jsonBytes(value, maxBytes);
  return bytes >= 0 ? bytes : Infinity;
}
