import type { DocumentIssue } from "./document-issue.js";
import { formatPath } from "./document-issue.js";
import type { WorkflowDocumentLimits } from "../model/workflow-document.limits.js";

type Pending = { value: unknown; path: PropertyKey[]; depth: number };

/**
 * A node's params must be plain JSON within the documented depth, size and string limits. Walked with
 * an explicit stack and stopped at the first problem, so a hostile value costs no more than the limits.
 */
export function checkParams(params: Record<string, unknown>, basePath: PropertyKey[], limits: WorkflowDocumentLimits): DocumentIssue | null {
  const stack: Pending[] = Object.entries(params).map(([key, value]) => ({ value, path: [...basePath, key], depth: 0 }));
  let entries = stack.length;
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop() as Pending;
    if (entries > limits.maxParamsEntries) {
      return limit(basePath, `must hold at most ${limits.maxParamsEntries} values in all`);
    }
    const problem = checkScalar(value, limits);
    if (problem) return { code: problem.code, path: formatPath(path), message: problem.message };
    if (value === null || typeof value !== "object") continue;
    if (depth + 1 > limits.maxParamsDepth) return limit(path, `is nested deeper than ${limits.maxParamsDepth} levels`);
    const children = Array.isArray(value) ? value.map((item, k) => [k, item] as const) : Object.entries(value);
    entries += children.length;
    for (const [key, child] of children) {
      if (key === "__proto__") return { code: "FIELD_INVALID", path: formatPath([...path, key]), message: '"__proto__" is not allowed as a key' };
      stack.push({ value: child, path: [...path, key], depth: depth + 1 });
    }
  }
  return null;
}

function checkScalar(value: unknown, limits: WorkflowDocumentLimits): Omit<DocumentIssue, "path"> | null {
  if (value === null || typeof value === "boolean") return null;
  if (typeof value === "number") return Number.isFinite(value) ? null : { code: "FIELD_INVALID", message: "must be a finite number" };
  if (typeof value === "string") {
    if (value.length <= limits.maxParamsStringLength) return null;
    return { code: "LIMIT_EXCEEDED", message: `must be at most ${limits.maxParamsStringLength} characters` };
  }
  if (Array.isArray(value)) return null;
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) return null;
  return { code: "FIELD_INVALID", message: "must be a JSON value (null, boolean, number, string, array or object)" };
}

function limit(path: PropertyKey[], message: string): DocumentIssue {
  return { code: "LIMIT_EXCEEDED", path: formatPath(path), message };
}
