import {
  checkWorkflowSettings,
  readNodeDocument,
  type DocumentIssue,
  type JsonValue,
  type LoopDeclaration,
  type NodeTypeRegistry,
  type StateChannel,
  type WorkflowLimits,
  type WorkflowNode,
} from "@weft/engine";
import { userError, type UserError } from "../../errors/user-error.type.js";
import { WORKFLOW_INPUT_LIMITS as LIMITS } from "./workflow-input.limits.js";

/**
 * The weft.workflow/v2 parts of node and workflow inputs (a node's config, loops, state channels,
 * limits), checked by the engine exactly as the document parser checks them, so whatever the API stores
 * exports as a document that imports again. Each problem is a user error with the input path, and the
 * field as a document writes it (`cases[0].when`, `loops[1].id`).
 */

type Path = (string | number)[];

/** A node attribute is checked by checkNodeAttributes; the config check reports only the config's own fields. */
const ATTRIBUTE_FIELDS = new Set(["id", "type", "content", "provider", "model", "params", "prompt", "position"]);

/** `cases[0].when` → `["cases", "0", "when"]`; `state["a b"]` → `["state", "a b"]`. */
export function fieldSegments(field: string): string[] {
  const segments: string[] = [];
  for (const match of field.matchAll(/([^.[\]]+)|\[("(?:[^"\\]|\\.)*"|\d+)\]/g)) {
    const [, name, bracket] = match;
    if (name !== undefined) segments.push(name);
    else if (bracket !== undefined) segments.push(bracket.startsWith('"') ? (JSON.parse(bracket) as string) : bracket);
  }
  return segments;
}

/** A document issue about an input: LIMIT_EXCEEDED and UNKNOWN_NODE_TYPE keep their code, anything else is VALIDATION_FAILED. */
function issueError(issue: DocumentIssue, path: Path, nodeIds: string[] = []): UserError {
  const code = issue.code === "LIMIT_EXCEEDED" || issue.code === "UNKNOWN_NODE_TYPE" ? issue.code : "VALIDATION_FAILED";
  const where = issue.path ? `${issue.path}: ` : "";
  return userError(code, `${where}${issue.message} (${issue.code})`, { path, nodeIds, ...(issue.path ? { field: issue.path } : {}) });
}

/**
 * A node's config given as a document writes it (bodies' nodes with their fields flat), read into the
 * model and checked against its type's schema; `inputPath` is where `config` sits in the input. The
 * node's own attributes are checkNodeAttributes's. An unknown type is reported there too: the node
 * comes back as given.
 */
export function readConfigInput(
  registry: NodeTypeRegistry,
  node: WorkflowNode,
  config: Record<string, JsonValue> | undefined,
  inputPath: Path,
): { node: WorkflowNode; errors: UserError[] } {
  if (!registry.get(node.type)) return { node, errors: [] };
  const misplaced = Object.keys(config ?? {}).filter((key) => ATTRIBUTE_FIELDS.has(key));
  if (misplaced.length > 0) {
    const errors = misplaced.map((key) =>
      userError("VALIDATION_FAILED", `"${key}" is a field of the node itself, not of its config`, { path: [...inputPath, "config", key], nodeIds: [node.id] }),
    );
    return { node, errors };
  }
  const { config: _stored, position: _position, ...attributes } = node;
  const read = readNodeDocument({ ...attributes, ...config }, { registry });
  const errors = read.issues
    .filter((issue) => !ATTRIBUTE_FIELDS.has(fieldSegments(issue.path)[0] ?? ""))
    .map((issue) => issueError(issue, [...inputPath, "config", ...fieldSegments(issue.path)], [node.id]));
  const readConfig = configOrNone(read.node?.config);
  const { config: _old, ...withoutConfig } = node;
  return { node: readConfig ? { ...withoutConfig, config: readConfig } : withoutConfig, errors };
}

/** The GraphQL shapes of the settings (see workflow-settings.input.ts), as plain data. */
export interface SettingsEditInput {
  loops?: readonly { id: string; max?: number | null; exit?: string | null }[] | null;
  state?: readonly { name: string; reducer: StateChannel["reducer"]; key?: string | null; scope?: StateChannel["scope"] | null }[] | null;
  limits?: { maxInvocations?: number | null; maxCostUsd?: number | null } | null;
}

/** Settings as the engine reads them; a field left out of the input is left out here (unchanged). Null clears. */
export interface SettingsEdit {
  loops?: LoopDeclaration[];
  state?: Record<string, StateChannel>;
  limits?: WorkflowLimits;
}

export function hasSettingsEdit(input: SettingsEditInput): boolean {
  return input.loops !== undefined || input.state !== undefined || input.limits !== undefined;
}

/** The settings an updateWorkflow input sets, or the user errors that refuse it (paths under `input`). */
export function readSettingsEdit(registry: NodeTypeRegistry, input: SettingsEditInput): { ok: true; edit: SettingsEdit } | { ok: false; errors: UserError[] } {
  const edit: SettingsEdit = {};
  const errors: UserError[] = [];
  if (input.loops !== undefined) {
    edit.loops = (input.loops ?? []).map((loop) => ({ id: loop.id, exit: loop.exit ?? null, ...(loop.max === null || loop.max === undefined ? {} : { max: loop.max }) }));
  }
  const channelIndex = new Map<string, number>();
  if (input.state !== undefined) {
    edit.state = {};
    (input.state ?? []).forEach((channel, index) => {
      if (channelIndex.has(channel.name)) {
        errors.push(userError("VALIDATION_FAILED", `state channel "${channel.name}" is declared twice`, { path: ["input", "state", index, "name"], field: "state" }));
      }
      channelIndex.set(channel.name, index);
      edit.state![channel.name] = { reducer: channel.reducer, ...(channel.key ? { key: channel.key } : {}), ...(channel.scope ? { scope: channel.scope } : {}) };
    });
  }
  if (input.limits !== undefined) {
    const { maxInvocations, maxCostUsd } = input.limits ?? {};
    edit.limits = { ...(maxInvocations == null ? {} : { maxInvocations }), ...(maxCostUsd == null ? {} : { maxCostUsd }) };
  }
  for (const issue of checkWorkflowSettings(edit, { registry })) errors.push(issueError(issue, settingsInputPath(issue.path, channelIndex)));
  return errors.length > 0 ? { ok: false, errors } : { ok: true, edit };
}

/** `loops[1].id` → input.loops.1.id; `state.answers.reducer` → input.state.<index of answers>.reducer (the input is a list). */
function settingsInputPath(field: string, channelIndex: ReadonlyMap<string, number>): Path {
  const [head, name, ...rest] = fieldSegments(field);
  if (head === "state" && name !== undefined) {
    const index = channelIndex.get(name);
    return index === undefined ? ["input", "state"] : ["input", "state", index, ...(rest.length > 0 ? rest : ["name"])];
  }
  return ["input", ...[head, name, ...rest].filter((segment): segment is string => segment !== undefined)];
}

/**
 * A loop declared by addEdge together with its first edge (`declareLoop`): the declaration as the engine
 * reads it, checked as a document's `loops[]` entry is, or the user errors with paths under `path`.
 */
export function readLoopDeclaration(
  registry: NodeTypeRegistry,
  input: { id: string; max?: number | null; exit?: string | null },
  path: Path,
): { ok: true; loop: LoopDeclaration } | { ok: false; errors: UserError[] } {
  const loop: LoopDeclaration = { id: input.id, exit: input.exit ?? null, ...(input.max === null || input.max === undefined ? {} : { max: input.max }) };
  const named = checkEdgeName(input.id, [...path, "id"]);
  if (named.length > 0) return { ok: false, errors: named };
  const errors = checkWorkflowSettings({ loops: [loop] }, { registry }).map((issue) => {
    const [, , ...field] = fieldSegments(issue.path ?? "");
    return issueError(issue, [...path, ...field]);
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, loop };
}

/** A port or loop id given to addEdge: like an id, 1 to maxIdLength characters without surrounding space. */
export function checkEdgeName(value: string | null | undefined, path: Path): UserError[] {
  if (value === undefined || value === null) return [];
  if (value.length === 0 || value.trim() !== value) return [userError("VALIDATION_FAILED", `${path.join(".")} must not be empty or start or end with a space`, { path })];
  if (value.length > LIMITS.maxIdLength) return [userError("LIMIT_EXCEEDED", `${path.join(".")} is at most ${LIMITS.maxIdLength} characters long`, { path })];
  return [];
}

/**
 * Node ids are unique across a whole workflow, bodies included (events and node runs name a node by its
 * id): the ids `node` brings (its own and its body's) against every other node's. CONFLICT errors.
 */
export function checkNodeIdsUnique(registry: NodeTypeRegistry, others: readonly WorkflowNode[], node: WorkflowNode, inputPath: Path): UserError[] {
  const taken = new Set<string>();
  for (const other of others) if (other.id !== node.id) for (const id of nodeIdsOf(registry, other)) taken.add(id);
  const [own, ...body] = nodeIdsOf(registry, node);
  const errors: UserError[] = [];
  if (own !== undefined && taken.has(own)) {
    errors.push(userError("CONFLICT", `a body of the workflow already has a node "${own}"`, { nodeIds: [own], path: [...inputPath, "id"] }));
  }
  const seen = new Set<string>(own === undefined ? [] : [own]);
  for (const id of body) {
    if (taken.has(id) || seen.has(id)) {
      errors.push(userError("CONFLICT", `the workflow already has a node "${id}": node ids are unique across the workflow, bodies included`, {
        nodeIds: [node.id],
        path: [...inputPath, "config", "body"],
        field: "body",
      }));
    }
    seen.add(id);
  }
  return errors;
}

/** A node's id, then the ids in its body (map, subgraph), depth first. */
function nodeIdsOf(registry: NodeTypeRegistry, node: WorkflowNode): string[] {
  const ids = [node.id];
  const body = registry.get(node.type)?.body?.graph(node);
  for (const inner of body?.nodes ?? []) ids.push(...nodeIdsOf(registry, inner));
  return ids;
}

/** A node's config from the database or an input: `{}` and null mean none. */
export function configOrNone(config: Record<string, JsonValue> | null | undefined): Record<string, JsonValue> | undefined {
  return config && Object.keys(config).length > 0 ? config : undefined;
}
