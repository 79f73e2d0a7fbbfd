import { WeftError } from "../model/errors.js";

/**
 * The limits every value a run makes must stay within (SPEC-V3 §1), decided once by the host (the API
 * from its environment, the command line with these defaults) and frozen into the prepared run, so a
 * worker executes a run with the limits it was accepted under.
 */
export interface RunLimits {
  /** Nesting depth of any JSON value (outputs, routed values, state, parsed replies, inputs): VALUE_TOO_DEEP. */
  maxValueDepth: number;
  /** One node output (and one routed value, one rendered template), serialized as JSON in UTF-8: OUTPUT_TOO_LARGE. */
  maxNodeOutputBytes: number;
  /** Everything one run stores, measured as the serialized size of its events: RUN_TOO_LARGE. */
  maxRunBytes: number;
  /** Cost units of one CEL evaluation (see expression/cel-budget.ts): EXPRESSION_BUDGET_EXCEEDED. */
  maxExpressionCost: number;
}

export const DEFAULT_RUN_LIMITS: Readonly<RunLimits> = Object.freeze({
  maxValueDepth: 64,
  maxNodeOutputBytes: 1_048_576,
  maxRunBytes: 67_108_864,
  maxExpressionCost: 1_000_000,
});

/** The codes a value over a limit is refused with (the node, or for RUN_TOO_LARGE the run, fails with it). */
export type LimitCode = "VALUE_TOO_DEEP" | "OUTPUT_TOO_LARGE" | "RUN_TOO_LARGE" | "EXPRESSION_BUDGET_EXCEEDED" | "VALUE_NOT_JSON";

/** The host's limits over the defaults; a limit that is not a whole number ≥ 1 is the host's bug (INVALID_RUN_LIMITS). */
export function resolveRunLimits(overrides: Partial<RunLimits> = {}): RunLimits {
  const limits = { ...DEFAULT_RUN_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new WeftError("INVALID_RUN_LIMITS", `run limit ${name} must be a whole number ≥ 1, not ${value}`, { audience: "internal" });
    }
  }
  return limits;
}

/** A limit's refusal: a user error with a stable code, shown as it is. */
export function limitError(code: LimitCode, message: string): WeftError {
  return new WeftError(code, message, { audience: "user" });
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1_048_576 && bytes % 1_048_576 === 0) return `${bytes / 1_048_576} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
