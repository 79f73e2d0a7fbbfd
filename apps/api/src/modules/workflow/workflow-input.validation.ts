import { hasVisibleCharacter, VISIBLE_NAME, type NodeTypeRegistry } from "@weft/engine";
import { WORKFLOW_INPUT_LIMITS as LIMITS } from "./workflow-input.limits.js";
import { checkParamsLimits } from "./params-limits.js";
import { userError, type UserError } from "../../errors/user-error.type.js";

/**
 * Input checks that run before any database work, so bad input is refused as a whole and changes
 * nothing. Each problem is a VALIDATION_FAILED or LIMIT_EXCEEDED error with the field's path.
 */

type Path = (string | number)[];

export function checkText(
  value: string | null | undefined,
  path: Path,
  limits: { max: number; required?: boolean },
): UserError[] {
  if (value === undefined || value === null) {
    return limits.required ? [userError("VALIDATION_FAILED", `${path.join(".")} is required`, { path })] : [];
  }
  if (limits.required && value.trim() === "") {
    return [userError("VALIDATION_FAILED", `${path.join(".")} must not be empty`, { path })];
  }
  if (value.length > limits.max) {
    return [
      userError("LIMIT_EXCEEDED", `${path.join(".")} is ${value.length} characters long; the limit is ${limits.max}`, {
        path,
      }),
    ];
  }
  return [];
}

export interface SettingsInput {
  name?: string | null;
  description?: string | null;
  prompts?: { generation?: string | null; ensemble?: string | null; validation?: string | null } | null;
  outputFormat?: string | null;
  knowledgeBase?: string | null;
}

/**
 * A workflow's name, wherever one is given (create, update, duplicate; import checks the same rule in
 * the document parser): 1 to maxNameLength characters, at least one of them visible (hasVisibleCharacter).
 */
export function checkName(name: string | null | undefined, path: Path, required: boolean): UserError[] {
  if (name !== undefined && name !== null && !hasVisibleCharacter(name)) {
    return [userError("VALIDATION_FAILED", `${path.join(".")} ${VISIBLE_NAME}`, { path })];
  }
  return checkText(name, path, { max: LIMITS.maxNameLength, required: required || (name !== undefined && name !== null) });
}

/** Settings of create/update. `requireName` for create, where the name is mandatory. */
export function checkSettings(input: SettingsInput, requireName: boolean): UserError[] {
  const errors = [
    ...checkName(input.name, ["input", "name"], requireName),
    ...checkText(input.description, ["input", "description"], { max: LIMITS.maxDescriptionLength }),
    ...checkText(input.outputFormat, ["input", "outputFormat"], { max: LIMITS.maxPromptLength }),
    ...checkText(input.knowledgeBase, ["input", "knowledgeBase"], { max: LIMITS.maxIdLength }),
  ];
  if (!requireName && input.name === null) {
    errors.push(userError("VALIDATION_FAILED", "input.name cannot be cleared", { path: ["input", "name"] }));
  }
  if (input.knowledgeBase !== undefined && input.knowledgeBase !== null && input.knowledgeBase.trim() === "") {
    errors.push(
      userError("VALIDATION_FAILED", "input.knowledgeBase must be a name or null", { path: ["input", "knowledgeBase"] }),
    );
  }
  for (const type of ["generation", "ensemble", "validation"] as const) {
    errors.push(...checkText(input.prompts?.[type], ["input", "prompts", type], { max: LIMITS.maxPromptLength }));
  }
  return errors;
}

/** Node ids follow the document format: 1 to maxIdLength characters, no leading or trailing space. */
export function checkNodeId(id: string, path: Path): UserError[] {
  if (id.length === 0 || id.trim() !== id) {
    return [userError("VALIDATION_FAILED", "a node id must not be empty or start or end with a space", { path })];
  }
  if (id.length > LIMITS.maxIdLength) {
    return [userError("LIMIT_EXCEEDED", `a node id is at most ${LIMITS.maxIdLength} characters long`, { path })];
  }
  return [];
}

export function checkPosition(position: { x: number; y: number } | null | undefined, path: Path): UserError[] {
  if (!position) return [];
  const errors: UserError[] = [];
  for (const axis of ["x", "y"] as const) {
    const value = position[axis];
    if (!Number.isFinite(value) || Math.abs(value) > LIMITS.maxCoordinate) {
      errors.push(
        userError("VALIDATION_FAILED", `${axis} must be a finite number within ±${LIMITS.maxCoordinate}`, {
          path: [...path, axis],
        }),
      );
    }
  }
  return errors;
}

/** The attributes a node stores, checked against its type's attribute schema from the registry. */
export interface NodeAttributes {
  content?: string;
  provider?: string;
  model?: string;
  params?: Record<string, unknown>;
  prompt?: string;
}

export function checkNodeAttributes(
  registry: NodeTypeRegistry,
  type: string,
  attributes: NodeAttributes,
  path: Path,
): UserError[] {
  const spec = registry.get(type);
  if (!spec) {
    const known = registry.types().join(", ");
    return [userError("UNKNOWN_NODE_TYPE", `unknown node type "${type}"; known types: ${known}`, { path: [...path, "type"] })];
  }
  const errors: UserError[] = [];
  if (attributes.params) errors.push(...checkParamsLimits(attributes.params, [...path, "params"]));
  const parsed = spec.attributes.safeParse(attributes);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const issuePath = [...path, ...issue.path.map((part) => String(part))];
      const keys = "keys" in issue && Array.isArray(issue.keys) ? ` (${issue.keys.join(", ")})` : "";
      errors.push(
        userError("VALIDATION_FAILED", `${spec.label} node: ${issue.message}${keys}`, { path: issuePath }),
      );
    }
  }
  return errors;
}
