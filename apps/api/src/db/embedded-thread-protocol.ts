import { DriverAdapterError } from "@prisma/driver-adapter-utils";

/**
 * The messages between the API's thread and the embedded database's thread (embedded-thread.ts,
 * embedded-thread-worker.ts). A call names an operation, the handle it applies to (an adapter, a
 * transaction; 0 for the database itself) and its arguments; the reply carries the value or the error.
 */
export type Operation =
  | "prisma.connect"
  | "prisma.queryRaw"
  | "prisma.executeRaw"
  | "prisma.executeScript"
  | "prisma.startTransaction"
  | "prisma.commit"
  | "prisma.rollback"
  | "prisma.dispose"
  | "raw.query"
  | "raw.exec"
  | "raw.script"
  | "raw.begin"
  | "raw.end"
  | "dumpDataDir";

export interface Call {
  id: number;
  operation: Operation;
  handle: number;
  args: unknown[];
}

export type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SentError };

/** What the thread sends once its database is open (or could not be). */
export type Opened = { opened: true } | { opened: false; error: SentError };

export interface WorkerOptions {
  dataDir: string;
  /** A data directory tarball to start from (OpenDatabaseOptions.restoreFrom). */
  restoreFrom?: ArrayBuffer;
}

/** An error as it crosses threads: its name, message and stack, and its own data fields (a PostgreSQL error's code, detail, …). */
export interface SentError {
  name: string;
  message: string;
  stack?: string;
  fields: Record<string, unknown>;
}

function cloneable(value: unknown): boolean {
  if (value === null || ["string", "number", "boolean", "bigint", "undefined"].includes(typeof value)) return true;
  if (typeof value !== "object") return false;
  try {
    structuredClone(value);
    return true;
  } catch {
    return false;
  }
}

export function sendError(error: unknown): SentError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) if (cloneable(value)) fields[key] = value;
  // A driver adapter error's payload is its `cause` (not enumerable on an Error).
  if (error.name === "DriverAdapterError" && cloneable(error.cause)) fields["cause"] = error.cause;
  return { name: error.name, message: error.message, stack: error.stack, fields };
}

/** The error again on the receiving side; a Prisma driver adapter error becomes one again, so Prisma maps it to its P-codes. */
export function receivedError(sent: SentError): Error {
  const error =
    sent.name === "DriverAdapterError" && typeof sent.fields["cause"] === "object"
      ? new DriverAdapterError(sent.fields["cause"] as ConstructorParameters<typeof DriverAdapterError>[0])
      : Object.assign(new Error(sent.message), sent.fields);
  error.name = sent.name;
  if (sent.stack) error.stack = `${sent.stack}\n    at (the embedded database's thread)`;
  return error;
}
