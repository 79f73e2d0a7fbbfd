import { eventBytes } from "./event-bytes.js";
import { measureJson } from "./json-measure.js";
import { formatBytes, limitError, type RunLimits } from "./run-limits.js";

/**
 * The one gate untrusted values cross before any serializer or database sees them (SPEC-V3 §1): a node's
 * output and routed value, a rendered template, a parsed reply, a CEL result, a starting state. Returns
 * the value's serialized size; throws VALUE_TOO_DEEP, OUTPUT_TOO_LARGE or VALUE_NOT_JSON (user errors:
 * the node fails with the code and nothing of the value is kept).
 */
export function gateValue(value: unknown, limits: Pick<RunLimits, "maxValueDepth" | "maxNodeOutputBytes">, what: string): number {
  const measure = measureJson(value, { maxDepth: limits.maxValueDepth, maxBytes: limits.maxNodeOutputBytes });
  switch (measure.problem) {
    case null:
      return measure.bytes;
    case "depth":
      throw limitError("VALUE_TOO_DEEP", `${what} is nested deeper than ${limits.maxValueDepth} levels (WEFT_MAX_VALUE_DEPTH)`);
    case "bytes":
      throw limitError("OUTPUT_TOO_LARGE", `${what} is larger than ${formatBytes(limits.maxNodeOutputBytes)} as JSON (WEFT_MAX_NODE_OUTPUT_BYTES)`);
    case "notJson":
      throw limitError("VALUE_NOT_JSON", `${what} is ${measure.what ?? "a value"}, which JSON cannot hold`);
  }
}

/** Refuses text longer than a node output may be, before more of it is built (templates, joined inputs). */
export function gateTextLength(length: number, limits: Pick<RunLimits, "maxNodeOutputBytes">, what: string): void {
  // Every UTF-16 unit takes at least one byte in JSON, so a text this long is over the limit whatever it holds.
  if (length > limits.maxNodeOutputBytes) {
    throw limitError("OUTPUT_TOO_LARGE", `${what} would be larger than ${formatBytes(limits.maxNodeOutputBytes)} (WEFT_MAX_NODE_OUTPUT_BYTES)`);
  }
}

/**
 * What one run has stored so far, counted as the serialized size of its events (they carry every value
 * the database keeps: node outputs and details, state, the final outputs). `charge` measures an event
 * only up to what is left, so an event of gigabytes costs no more than the budget to refuse.
 */
export class RunBytes {
  #used = 0;

  constructor(readonly maxBytes: number) {}

  get used(): number {
    return this.#used;
  }

  /** Counts the event and returns true when it fits; false (and nothing counted) when it would pass the budget. */
  charge(event: object): boolean {
    const bytes = eventBytes(event, this.maxBytes - this.#used);
    if (bytes === Infinity) return false;
    this.#used += bytes;
    return true;
  }

  tooLarge(): Error {
    return limitError("RUN_TOO_LARGE", `the run would store more than ${formatBytes(this.maxBytes)} (WEFT_MAX_RUN_BYTES)`);
  }
}
