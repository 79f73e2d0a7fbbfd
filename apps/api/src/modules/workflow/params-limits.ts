import { WORKFLOW_DOCUMENT_LIMITS as LIMITS } from "@weft/engine";
import { userError, type UserError } from "../../errors/user-error.type.js";

type Path = (string | number)[];

/**
 * Bounds a node's params tree (depth, number of values, string length) with the document limits, so
 * whatever the API stores can be exported and imported again. Stops at the first problem per kind.
 */
export function checkParamsLimits(params: Record<string, unknown>, path: Path): UserError[] {
  let entries = 0;
  const errors: UserError[] = [];
  const visit = (value: unknown, at: Path, depth: number): void => {
    if (errors.length > 0) return;
    if (typeof value === "string" && value.length > LIMITS.maxParamsStringLength) {
      errors.push(
        userError("LIMIT_EXCEEDED", `a params string is longer than ${LIMITS.maxParamsStringLength} characters`, {
          path: at,
        }),
      );
      return;
    }
    if (value === null || typeof value !== "object") return;
    if (depth > LIMITS.maxParamsDepth) {
      errors.push(userError("LIMIT_EXCEEDED", `params nest deeper than ${LIMITS.maxParamsDepth} levels`, { path: at }));
      return;
    }
    const children: [string | number, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : Object.entries(value);
    entries += children.length;
    if (entries > LIMITS.maxParamsEntries) {
      errors.push(userError("LIMIT_EXCEEDED", `params hold more than ${LIMITS.maxParamsEntries} values`, { path }));
      return;
    }
    for (const [key, child] of children) visit(child, [...at, key], depth + 1);
  };
  for (const [key, value] of Object.entries(params)) {
    entries += 1;
    visit(value, [...path, key], 1);
  }
  if (entries > LIMITS.maxParamsEntries && errors.length === 0) {
    errors.push(userError("LIMIT_EXCEEDED", `params hold more than ${LIMITS.maxParamsEntries} values`, { path }));
  }
  return errors;
}
