export type DatabaseErrorCode =
  | "DB_CONFIG_INVALID"
  | "DB_CONNECT_FAILED"
  | "DB_DATA_DIR_LOCKED"
  | "DB_MIGRATION_FAILED"
  | "DB_MIGRATIONS_PENDING"
  | "DB_MIGRATIONS_AHEAD"
  | "DB_SCHEMA_DRIFT";

/** An operational database problem, for the operator rather than the API client. */
export class DatabaseError extends Error {
  override readonly name = "DatabaseError";

  constructor(
    readonly code: DatabaseErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
