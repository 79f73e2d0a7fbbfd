import { Prisma } from "../../generated/prisma/client.js";

/**
 * Runs that are still going: QUEUED or RUNNING. While one of a workflow's draft is, no node or edge of
 * the workflow may change; ending a run (run-termination.ts) moves it from one of these to a final status.
 */
export const ACTIVE_RUN_STATUSES = ["QUEUED", "RUNNING"] as const;

export type ActiveRunStatus = (typeof ACTIVE_RUN_STATUSES)[number];

/** `('QUEUED', 'RUNNING')` for `status IN …` in raw SQL: literals (not parameters), so a statement's text stays one shape. */
export const ACTIVE_RUN_STATUS_LIST = Prisma.raw(`(${ACTIVE_RUN_STATUSES.map((status) => `'${status}'`).join(", ")})`);

export function isActiveRunStatus(status: string): status is ActiveRunStatus {
  return (ACTIVE_RUN_STATUSES as readonly string[]).includes(status);
}
