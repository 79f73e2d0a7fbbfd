/**
 * Whether a JSON value stays within a depth, a count of values and a string length, and holds only
 * plain JSON (no `__proto__` key, finite numbers). Walked with an explicit stack and stopped at the
 * first problem, so a hostile value costs no more than the limits. Returns the problem and where.
 */
export interface JsonLimitProblem {
  path: PropertyKey[];
  message: string;
  /** LIMIT_EXCEEDED for a limit, FIELD_INVALID for a value that is not plain JSON. */
  kind: "limit" | "invalid";
}

export interface JsonLimits {
  maxDepth: number;
  maxEntries: number;
  maxStringLength: number;
}

export function findJsonLimitProblem(value: unknown, limits: JsonLimits): JsonLimitProblem | null {
  const stack: Array<{ value: unknown; path: PropertyKey[]; depth: number }> = [{ value, path: [], depth: 0 }];
  let entries = 0;
  while (stack.length > 0) {
    const current = stack.pop()!;
    const scalar = scalarProblem(current.value, limits);
    if (scalar) return { ...scalar, path: current.path };
    if (current.value === null || typeof current.value !== "object") continue;
    if (current.depth + 1 > limits.maxDepth) return { kind: "limit", path: current.path, message: `is nested deeper than ${limits.maxDepth} levels` };
    const children = Array.isArray(current.value) ? current.value.map((item, k) => [k, item] as const) : Object.entries(current.value);
    entries += children.length;
    if (entries > limits.maxEntries) return { kind: "limit", path: [], message: `must hold at most ${limits.maxEntries} values in all` };
    for (const [key, child] of children) {
      if (key === "__proto__") return { kind: "invalid", path: [...current.path, key], message: '"__proto__" is not allowed as a key' };
      stack.push({ value: child, path: [...current.path, key], depth: current.depth + 1 });
    }
  }
  return null;
}

function scalarProblem(value: unknown, limits: JsonLimits): Omit<JsonLimitProblem, "path"> | null {
  if (value === null || typeof value === "boolean") return null;
  if (typeof value === "number") return Number.isFinite(value) ? null : { kind: "invalid", message: "must be a finite number" };
  if (typeof value === "string") {
    return value.length <= limits.maxStringLength ? null : { kind: "limit", message: `must be at most ${limits.maxStringLength} characters` };
  }
  if (Array.isArray(value)) return null;
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) return null;
  return { kind: "invalid", message: "must be a JSON value (null, boolean, number, string, array or object)" };
}
