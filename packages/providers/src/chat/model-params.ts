import { WeftError } from "@weft/engine";

/**
 * A node's numeric model parameter under any of its accepted names (`max_tokens` or `maxTokens`): the
 * first one set, undefined when none is. A value that is not a finite number is refused before any call.
 */
export function numberParam(params: Record<string, unknown>, names: readonly string[]): number | undefined {
  for (const name of names) {
    const value = params[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw new WeftError("INVALID_MODEL_PARAMS", `Model parameter "${name}" must be a number, got ${JSON.stringify(value)}.`);
    }
    return value;
  }
  return undefined;
}

/** Reads each wire field from its accepted node-param names, leaving out the ones not set. */
export function readParams<T extends string>(params: Record<string, unknown>, table: Readonly<Record<T, readonly string[]>>): Partial<Record<T, number>> {
  const read: Partial<Record<T, number>> = {};
  for (const [field, names] of Object.entries(table) as [T, readonly string[]][]) {
    const value = numberParam(params, names);
    if (value !== undefined) read[field] = value;
  }
  return read;
}
