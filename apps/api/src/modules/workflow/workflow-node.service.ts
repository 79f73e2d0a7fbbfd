import { checkAddNode, checkEdit, checkRemoveNode, isJsonObject, type JsonValue, type NodeTypeRegistry, type Workflow, type WorkflowGraph, type WorkflowNode } from "@weft/engine";
import type { Prisma } from "../../generated/prisma/client.js";
import type { PrismaClient, Workflow as WorkflowRow, WorkflowNode as NodeRow } from "../../generated/prisma/client.js";
import type { AddNodeInput, NodeMoveInput, UpdateNodeInput } from "./workflow.input.js";
import type { ServiceDeps } from "../../service-deps.js";
import type { WorkflowChanges } from "./workflow-changes.js";
import { WORKFLOW_INPUT_LIMITS as LIMITS } from "./workflow-input.limits.js";
import {
  checkNodeAttributes,
  checkNodeId,
  checkPosition,
  type NodeAttributes,
} from "./workflow-input.validation.js";
import { runGraphEdit } from "./workflow-edit.transaction.js";
import { addNodeStatement, checkedOnSlices, nodeForUpdate, nodesByKey, removeNodeStatement, ruleTypes, updateNodeStatement, type NodeColumns, type RuleTypes } from "./workflow-edit-sql.js";
import { refuse } from "../../errors/refusal.js";
import { loadWorkflow, lockedWhileRunning } from "./workflow-lock.js";
import { checkNodeIdsUnique, configOrNone, readConfigInput } from "./pipeline-input.validation.js";
import { configFromJson } from "./workflow.mapper.js";
import { userError, violationToUserError, type UserError } from "../../errors/user-error.type.js";
import { failure, type Outcome } from "../../errors/outcome.js";

export interface NodeEditResult {
  node: NodeRow;
  workflow: WorkflowRow;
}

export interface NodeRemoval {
  removedNodeId: string;
  removedEdgeIds: string[];
  workflow: WorkflowRow;
}

type AttributeInput = Pick<UpdateNodeInput, "content" | "provider" | "model" | "params" | "prompt">;
const ATTRIBUTE_KEYS = ["content", "provider", "model", "params", "prompt"] as const;
/** What a run executes: changing any of these is a graph edit (refused while a run of the draft is active). */
const EXECUTED_KEYS = [...ATTRIBUTE_KEYS, "config"] as const;

/** Node edits: add, update, move, remove. Each one is one locked transaction (runGraphEdit). */
export class WorkflowNodeService {
  private readonly db: PrismaClient;
  private readonly registry: NodeTypeRegistry;
  private readonly changes: WorkflowChanges | undefined;
  private readonly types: RuleTypes;

  constructor(deps: Pick<ServiceDeps, "db" | "registry">, changes?: WorkflowChanges) {
    this.db = deps.db;
    this.registry = deps.registry;
    this.changes = changes;
    this.types = ruleTypes(deps.registry);
  }

  async addNode(workflowId: string, input: AddNodeInput): Promise<Outcome<NodeEditResult>> {
    const attributes = withAttributes({}, input);
    const read = readConfigInput(this.registry, nodeOf(input.id ?? input.type, input.type, attributes, undefined), configOrNone(input.config), ["input"]);
    const config = read.node.config;
    const invalid = [
      ...(input.id === undefined || input.id === null ? [] : checkNodeId(input.id, ["input", "id"])),
      ...checkPosition(input.position, ["input", "position"]),
      ...checkNodeAttributes(this.registry, input.type, attributes, ["input"]),
      ...read.errors,
    ];
    if (invalid.length > 0) return failure(...invalid);
    const isText = this.registry.get(input.type)?.component === "TextNode";
    const columns: NodeColumns = {
      type: input.type,
      provider: attributes.provider ?? null,
      model: attributes.model ?? null,
      params: attributes.params ?? null,
      prompt: attributes.prompt ?? null,
      content: attributes.content ?? (isText ? "" : null),
      config: config && Object.keys(config).length > 0 ? config : null,
      positionX: input.position?.x ?? 0,
      positionY: input.position?.y ?? 0,
    };
    const countRule = this.types.counted.includes(input.type);
    const outcome = await runGraphEdit(this.db, workflowId, async (tx, row) => {
      const added = await addNodeStatement(tx, row, input.id ?? null, columns, countRule, this.types);
      if (added.activeRunId) refuse(lockedWhileRunning(added.activeRunId));
      const key = added.key;
      if (added.count >= LIMITS.maxNodes) {
        refuse(userError("LIMIT_EXCEEDED", `a workflow holds at most ${LIMITS.maxNodes} nodes`, { path: ["input"] }));
      }
      if (added.taken) {
        refuse(userError("CONFLICT", `the workflow already has a node "${key}"`, { nodeIds: [key], path: ["input", "id"] }));
      }
      const peers: WorkflowGraph = { nodes: added.peers.map((id) => ({ id, type: input.type })), edges: [] };
      const violations = checkAddNode(peers, input.type, { registry: this.registry });
      if (violations.length > 0) refuse(...violations.map(violationToUserError));
      const node = added.node;
      if (!node) throw new Error("addNode wrote no node although its key is free and no run is active");
      if (config || !checkedOnSlices(row, added.otherTypes)) {
        await this.#checkNodeRules(tx, row, nodeOf(key, input.type, attributes, config), (graph) => ({ ...graph, nodes: graph.nodes.filter((other) => other.id !== key) }));
      }
      return node;
    }, this.changes);
    return outcome.ok ? { ok: true, value: { node: outcome.value.value, workflow: outcome.value.workflow } } : outcome;
  }

  /**
   * Changes a node's attributes and/or position; its type is fixed. While a run is active only the
   * position may change: positions are layout, not part of what a run executes.
   */
  async updateNode(workflowId: string, nodeId: string, input: UpdateNodeInput): Promise<Outcome<NodeEditResult>> {
    const invalid = checkPosition(input.position, ["input", "position"]);
    if (invalid.length > 0) return failure(...invalid);
    const outcome = await runGraphEdit(this.db, workflowId, async (tx, row) => {
      const read = await nodeForUpdate(tx, row, nodeId, this.types);
      const current = read.node;
      if (!current) refuse(noSuchNode(nodeId));
      const changesExecuted = EXECUTED_KEYS.some((key) => input[key] !== undefined);
      if (changesExecuted && read.activeRunId) refuse(lockedWhileRunning(read.activeRunId, { nodeIds: [nodeId] }));
      const attributes = withAttributes(attributesOf(current), input);
      const next =
        input.config === undefined
          ? { node: nodeOf(nodeId, current.type, attributes, configFromJson(current.config)), errors: [] }
          : readConfigInput(this.registry, nodeOf(nodeId, current.type, attributes, undefined), configOrNone(input.config), ["input"]);
      const after = next.node;
      const config = after.config;
      const errors = [...checkNodeAttributes(this.registry, current.type, attributes, ["input"]), ...next.errors];
      if (errors.length > 0) refuse(...errors.map((error) => ({ ...error, nodeIds: [nodeId] })));
      if (changesExecuted && (config || !checkedOnSlices(row, read.otherTypes))) await this.#checkNodeRules(tx, row, after, (graph) => graph);
      const updated = await updateNodeStatement(tx, workflowId, nodeId, {
        ...nodeColumns(attributes),
        config: config && Object.keys(config).length > 0 ? config : null,
        positionX: input.position?.x ?? current.positionX,
        positionY: input.position?.y ?? current.positionY,
      });
      // The row lock keeps the node: nodeForUpdate found it in this transaction.
      if (!updated) throw new Error(`node "${nodeId}" vanished under the workflow's row lock`);
      return updated;
    }, this.changes);
    return outcome.ok ? { ok: true, value: { node: outcome.value.value, workflow: outcome.value.workflow } } : outcome;
  }

  /** Saves canvas positions in bulk. Layout only, so it is allowed while a run is active. */
  async moveNodes(workflowId: string, moves: readonly NodeMoveInput[]): Promise<Outcome<{ workflow: WorkflowRow }>> {
    const invalid = checkMoves(moves);
    if (invalid.length > 0) return failure(...invalid);
    const outcome = await runGraphEdit(this.db, workflowId, async (tx) => {
      const known = new Set((await nodesByKey(tx, workflowId, moves.map((move) => move.id))).map((node) => node.id));
      const missing = moves.map((move) => move.id).filter((id) => !known.has(id));
      if (missing.length > 0) {
        refuse(userError("NOT_FOUND", `the workflow has no node ${missing.map((id) => `"${id}"`).join(", ")}`, {
          nodeIds: missing,
          path: ["moves"],
        }));
      }
      for (const move of moves) {
        await tx.workflowNode.update({
          where: { workflowId_key: { workflowId, key: move.id } },
          data: { positionX: move.x, positionY: move.y },
        });
      }
    }, this.changes);
    return outcome.ok ? { ok: true, value: { workflow: outcome.value.workflow } } : outcome;
  }

  /** Removes a node and every edge touching it. */
  async removeNode(workflowId: string, nodeId: string): Promise<Outcome<NodeRemoval>> {
    const outcome = await runGraphEdit(this.db, workflowId, async (tx, row) => {
      const removal = await removeNodeStatement(tx, row, nodeId, this.types.counted);
      if (removal.type === null) refuse(noSuchNode(nodeId));
      if (removal.activeRunId) refuse(lockedWhileRunning(removal.activeRunId, { nodeIds: [nodeId] }));
      const type = removal.type;
      const slice: WorkflowGraph = { nodes: removal.peers.map((id) => ({ id, type })), edges: [] };
      if (!slice.nodes.some((candidate) => candidate.id === nodeId)) slice.nodes.push({ id: nodeId, type });
      const violations = checkRemoveNode(slice, nodeId, { registry: this.registry });
      if (violations.length > 0) refuse(...violations.map(violationToUserError));
      // Its edges went with it (the foreign keys cascade).
      return removal.touching;
    }, this.changes);
    if (!outcome.ok) return outcome;
    return { ok: true, value: { removedNodeId: nodeId, removedEdgeIds: outcome.value.value, workflow: outcome.value.workflow } };
  }

  /**
   * The edit-time rules a node's config is subject to (CEL expressions, ports of its edges and loops,
   * state channels it writes, body ids unique in the workflow), judged by checkEdit updateNode on the
   * whole graph: the violations the node as it will be adds. (A seed-000 workflow whose node has no
   * config has nothing to check here: its count rules are checked on a slice.) The graph is read after
   * the node was written: `before` gives the graph the edit started from (addNode leaves the new node out).
   */
  async #checkNodeRules(tx: Prisma.TransactionClient, row: WorkflowRow, node: WorkflowNode, before: (graph: Workflow) => Workflow): Promise<void> {
    const graph = before(await loadWorkflow(tx, { row }));
    const bare: WorkflowNode = { id: node.id, type: node.type };
    const known = graph.nodes.some((other) => other.id === node.id);
    const start = known ? graph : { ...graph, nodes: [...graph.nodes, bare] };
    const clashes = checkNodeIdsUnique(this.registry, graph.nodes, node, ["input"]);
    if (clashes.length > 0) refuse(...clashes);
    const violations = checkEdit(start, { kind: "updateNode", nodeId: node.id, node }, { registry: this.registry });
    if (violations.length > 0) refuse(...violations.map(violationToUserError));
  }

}

/** The node as the engine sees it (positions do not matter to the rules). */
function nodeOf(id: string, type: string, attributes: NodeAttributes, config: Record<string, JsonValue> | undefined): WorkflowNode {
  return { id, type, ...(attributes as Omit<WorkflowNode, "id" | "type">), ...(config ? { config } : {}) };
}

function noSuchNode(nodeId: string): UserError {
  return userError("NOT_FOUND", `the workflow has no node "${nodeId}"`, { nodeIds: [nodeId], path: ["nodeId"] });
}

function attributesOf(row: NodeRow): NodeAttributes {
  const attributes: NodeAttributes = {};
  if (row.content !== null) attributes.content = row.content;
  if (row.provider !== null) attributes.provider = row.provider;
  if (row.model !== null) attributes.model = row.model;
  if (isJsonObject(row.params)) attributes.params = row.params;
  if (row.prompt !== null) attributes.prompt = row.prompt;
  return attributes;
}

/** Overlays an input on attributes: undefined keeps, null clears, a value replaces. */
function withAttributes(base: NodeAttributes, input: AttributeInput): NodeAttributes {
  const result: NodeAttributes = { ...base };
  for (const key of ATTRIBUTE_KEYS) {
    const value = input[key];
    if (value === null) delete result[key];
    else if (value !== undefined) (result as Record<string, unknown>)[key] = value;
  }
  return result;
}

function nodeColumns(attributes: NodeAttributes): Pick<NodeColumns, "content" | "provider" | "model" | "params" | "prompt"> {
  return {
    content: attributes.content ?? null,
    provider: attributes.provider ?? null,
    model: attributes.model ?? null,
    params: attributes.params ?? null,
    prompt: attributes.prompt ?? null,
  };
}

function checkMoves(moves: readonly NodeMoveInput[]): UserError[] {
  if (moves.length > LIMITS.maxMovedNodes) {
    return [userError("LIMIT_EXCEEDED", `moveNodes takes at most ${LIMITS.maxMovedNodes} nodes at once`, { path: ["moves"] })];
  }
  const errors: UserError[] = [];
  const seen = new Set<string>();
  moves.forEach((move, index) => {
    if (seen.has(move.id)) {
      errors.push(userError("VALIDATION_FAILED", `node "${move.id}" is moved twice`, { nodeIds: [move.id], path: ["moves", index, "id"] }));
    }
    seen.add(move.id);
    errors.push(...checkPosition(move, ["moves", index]));
  });
  return errors;
}
