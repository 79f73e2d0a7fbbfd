import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

/**
 * SHA-256 (hex) of a document's canonical JSON (RFC 8785: sorted keys, one number format, no
 * whitespace), so the same content always has the same hash whatever order its fields were written in.
 */
export function contentHash(document: unknown): string {
  const canonical = canonicalize(document);
  if (canonical === undefined) throw new Error("a workflow document must be a JSON value");
  return createHash("sha256").update(canonical, "utf8").digest("hex");
}
