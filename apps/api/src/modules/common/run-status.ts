import { Prisma } from "../../generated/prisma/client.js";

/**
 * Runs that are still going: QUEUED, RUNNING, or WAITING for a person (SPEC-V3 §2). Ending a run
 * (run-termination.ts) moves it from one of these to a final status; an active run cannot be deleted.
 */
export const ACTIVE_RUN_STATUSES = ["QUEUED", "RUNNING", "WAITING"] as const;

export type ActiveRunStatus = (typeof ACTIVE_RUN_STATUSES)[number];

/**
 * Active runs that a process executes or is about to: WAITING ones are held by none. While a run of a
 * workflow's draft is one of these, no node or edge of the workflow may change (a waiting run does not
 * hold the draft for the days a person may take: it runs from its snapshot); a server that stops leaves
 * these interrupted, never a waiting one.
 */
export const EXECUTING_RUN_STATUSES = ["QUEUED", "RUNNING"] as const;

/** `('QUEUED', 'RUNNING', 'WAITING')` for `status IN …` in raw SQL: literals (not parameters), so a statement's text stays one shape. */
export const ACTIVE_RUN_STATUS_LIST = Prisma.raw(`(${ACTIVE_RUN_STATUSES.map((status) => `'${status}'`).join(", ")})`);

export function isActiveRunStatus(status: string): status is ActiveRunStatus {
  return (ACTIVE_RUN_STATUSES as readonly string[]).includes(status);
}

/** Whether a process executes the run or is about to (QUEUED, RUNNING): not ended, not waiting for a person. */
export function isExecutingRunStatus(status: string): boolean {
  return (EXECUTING_RUN_STATUSES as readonly string[]).includes(status);
}
