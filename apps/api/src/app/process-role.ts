import { EnvError, type Env } from "../env.js";

/**
 * What a process does: `api` serves GraphQL over HTTP and WebSocket and enqueues runs; `worker` executes
 * runs; `all` (the default) does both, as a single process does. Separate roles need REDIS_URL: the
 * queue and the event bus must reach the other processes.
 */
export type ProcessRole = "api" | "worker" | "all";

const ROLES: readonly ProcessRole[] = ["api", "worker", "all"];

/** `--role api|worker|all` (or `--role=…`) from the command line; absent: `all`. */
export function roleFromArgs(args: readonly string[]): ProcessRole {
  let value: string | undefined;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === "--role") value = args[index + 1] ?? "";
    else if (arg.startsWith("--role=")) value = arg.slice("--role=".length);
  }
  if (value === undefined) return "all";
  if (!(ROLES as readonly string[]).includes(value)) throw new EnvError([`--role: expected api, worker or all (got "${value}")`]);
  return value as ProcessRole;
}

/** A separate role without Redis would accept runs nobody executes, or execute none. */
export function checkRole(role: ProcessRole, env: Pick<Env, "REDIS_URL">): void {
  if (role !== "all" && !env.REDIS_URL) {
    throw new EnvError([`--role ${role}: needs REDIS_URL (and DATABASE_URL): API and worker processes meet through Redis and PostgreSQL`]);
  }
}

export const servesApi = (role: ProcessRole): boolean => role !== "worker";
export const executesRuns = (role: ProcessRole): boolean => role !== "api";
