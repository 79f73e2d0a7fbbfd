import { WeftError } from "../model/errors.js";
import type { PreparedRun, PrepareRunResult, RunPolicy } from "../execute/prepare-run.js";
import type { ExecutionOptions } from "../execute/run-workflow.js";

/** The host's policy and this process's execution options, in one bag to keep tests short. */
export type HarnessOptions = Omit<RunPolicy, "registry"> & ExecutionOptions;

/** Splits a test's options into the policy prepareRun takes and the options runWorkflow takes. */
export function splitHarnessOptions(options: HarnessOptions = {}): { policy: Omit<RunPolicy, "registry">; execution: ExecutionOptions } {
  const { limiter, retry, clock, sleep, random, stateEvents, taskId, recordInFlight, ...policy } = options;
  return {
    policy,
    execution: { limiter, retry, clock, sleep: sleep ?? (async () => undefined), random, stateEvents, recordInFlight, ...(taskId ? { taskId } : {}) },
  };
}

/** The prepared run, or a RUN_REFUSED WeftError listing every violation (tests assert on either). */
export function preparedOrThrow(result: PrepareRunResult): PreparedRun {
  if (result.ok) return result.run;
  const codes = result.violations.map((violation) => `${violation.code}: ${violation.message}`).join("; ");
  throw new WeftError("RUN_REFUSED", codes, { details: { violations: result.violations } });
}
