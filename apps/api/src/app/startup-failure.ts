import { WeftError } from "@weft/engine";
import { DatabaseError } from "../db/database-error.js";
import { EnvError } from "../env.js";

/** Socket errors an operator causes and fixes (another process on the port, a privileged port, no such address). */
const LISTEN_CODES = new Set(["EADDRINUSE", "EACCES", "EADDRNOTAVAIL"]);

/**
 * The log line for a refusal to start. Expected failures (configuration, database state, the port)
 * carry their code and message and no stack: the operator has something to fix, not a bug to report.
 * Anything else is logged whole, stack included, under `err`.
 */
export function startupFailure(error: unknown): { fields: Record<string, unknown>; message: string } {
  if (error instanceof DatabaseError || error instanceof EnvError) {
    return { fields: { code: error.code }, message: `the API did not start: ${error.message}` };
  }
  if (error instanceof WeftError && error.audience !== "internal") {
    return { fields: { code: error.code }, message: `the API did not start: ${error.message}` };
  }
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code === "string" && LISTEN_CODES.has(code)) {
    return { fields: { code }, message: `the API did not start: ${(error as Error).message}` };
  }
  return { fields: { err: error }, message: "the API did not start: unexpected error" };
}
