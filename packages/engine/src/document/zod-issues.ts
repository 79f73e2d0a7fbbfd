import type { z } from "zod";
import { formatPath, type DocumentIssue } from "./document-issue.js";

/**
 * Zod's issues as document issues under `base`: an unknown key is FIELD_UNKNOWN at the key's own path
 * (one issue per key), a value over a size limit LIMIT_EXCEEDED (zod's too_big on a string or list, or
 * a custom issue with `params.limit`), anything else (a number out of range too) FIELD_INVALID.
 */
export function zodIssues(error: z.ZodError, base: readonly PropertyKey[], unknownMessage = (key: string) => `unknown field "${key}"`): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        issues.push({ code: "FIELD_UNKNOWN", path: formatPath([...base, ...issue.path, key]), message: unknownMessage(key) });
      }
    } else {
      const sizeLimit = issue.code === "too_big" && issue.origin !== "number" && issue.origin !== "int" && issue.origin !== "bigint";
      const limit = sizeLimit || (issue.code === "custom" && issue.params?.limit === true);
      const code = limit ? "LIMIT_EXCEEDED" : "FIELD_INVALID";
      issues.push({ code, path: formatPath([...base, ...issue.path]), message: issue.message });
    }
  }
  return issues;
}
