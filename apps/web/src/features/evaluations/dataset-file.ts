import type { DatasetFormat } from "@/gql/graphql";

/** The format a dataset file's name says it is in; null when the user must say. */
export function formatOfFile(name: string): DatasetFormat | null {
  const lower = name.toLowerCase();
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) return "JSONL";
  if (lower.endsWith(".csv")) return "CSV";
  return null;
}

/**
 * Whether a file fits in one request: the import sends its text in a GraphQL mutation, and the server
 * refuses bodies over its limit (serverInfo.limits.maxBodyBytes). A little room is kept for the rest of
 * the request; JSON escaping can still push a text just under the limit over it, which the server says.
 */
export function fitsInOneRequest(fileBytes: number, maxBodyBytes: number): boolean {
  return fileBytes <= maxBodyBytes - 1024;
}
