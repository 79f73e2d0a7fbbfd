/**
 * What the schema engine reports when a migration fails is the database's error followed by a Rust
 * backtrace of the engine. Operators need the first part, and for the classic first-deploy mistake a
 * way out: on PostgreSQL 15 and later `GRANT ALL ON DATABASE` no longer lets a user create tables in
 * the `public` schema (only its owner can).
 */
export function summarizeEngineError(message: string): string {
  const lines = message.split("\n").map((line) => line.trim());
  // The backtrace starts with numbered frames ("0: sql_schema_connector::…").
  const end = lines.findIndex((line) => /^\d+: \S+::/.test(line));
  const summary = (end === -1 ? lines : lines.slice(0, end)).filter((line) => line !== "").join(" ");
  return /permission denied for schema public/i.test(summary) ? `${summary}. ${PUBLIC_SCHEMA_HINT}` : summary;
}

const PUBLIC_SCHEMA_HINT =
  "The database user may not create tables in the schema public: on PostgreSQL 15 and later GRANT ALL ON DATABASE " +
  "does not allow it. Make the user the database's owner (CREATE DATABASE weft OWNER weft, or ALTER DATABASE weft OWNER TO weft), " +
  "or run GRANT CREATE ON SCHEMA public TO weft in that database";
