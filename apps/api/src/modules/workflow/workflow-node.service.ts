import { checkAddNode, checkEdit, checkRemoveNode, type JsonValue, type NodeTypeRegistry, type WorkflowGraph, type WorkflowNode } from "@weft/engine";
import { Prisma } from "../../generated/prisma/client.js";
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
import { runWorkflowEdit } from "./workflow-edit.transaction.js";
import { checkedOnSlices, edgesTouching, nodeCount, nodeKeysStartingWith, nodesByKey, nodesOfType } from "./workflow-graph-slice.js";
import { loadWorkflow, lockedWhileRunning, refuse, type LockedWorkflow } from "./workflow-lock.js";
import { checkNodeIdsUnique, configOrNone, readConfigInput } from "./pipeline-input.validation.js";
import { configColumn, configFromJson } from "./workflow.mapper.js";
import { nextNodeId } from "./node-id.js";
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

/** Node edits: add, update, move, remove. Each one is one locked transaction (runWorkflowEdit). */
export class WorkflowNodeService {
  private readonly db: PrismaClient;
  private readonly registry: NodeTypeRegistry;
  private readonly changes: WorkflowChanges | undefined;

  constructor(deps: Pick<ServiceDeps, "db" | "registry">, changes?: WorkflowChanges) {
    this.db = deps.db;
    this.registry = deps.registry;
    this.changes = changes;
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
    const outcome = await runWorkflowEdit(this.db, workflowId, async (tx, workflow) => {
      if (workflow.activeRunId) refuse(lockedWhileRunning(workflow.activeRunId));
      const key = input.id ?? nextNodeId(input.type, await nodeKeysStartingWith(tx, workflowId, `${input.type}-`));
      const nodes = await nodeCount(tx, workflowId, key);
      if (nodes.count >= LIMITS.maxNodes) {
        refuse(userError("LIMIT_EXCEEDED", `a workflow holds at most ${LIMITS.maxNodes} nodes`, { path: ["input"] }));
      }
      if (nodes.taken) {
        refuse(userError("CONFLICT", `the workflow already has a node "${key}"`, { nodeIds: [key], path: ["input", "id"] }));
      }
      const violations = checkAddNode(await this.#countSlice(tx, workflowId, input.type), input.type, { registry: this.registry });
      if (violations.length > 0) refuse(...violations.map(violationToUserError));
      await this.#checkNodeRules(tx, workflow, nodeOf(key, input.type, attributes, config), "add");
      const isText = this.registry.get(input.type)?.component === "TextNode";
      return tx.workflowNode.create({
        data: {
          workflowId,
          key,
          type: input.type,
          ...toColumns(attributes),
          config: configColumn(config),
          content: attributes.content ?? (isText ? "" : null),
          positionX: input.position?.x ?? 0,
          positionY: input.position?.y ?? 0,
        },
      });
    }, this.changes, ["workflowId"]);
    return outcome.ok ? { ok: true, value: { node: outcome.value.value, workflow: outcome.value.workflow } } : outcome;
  }

  /**
   * Changes a node's attributes and/or position; its type is fixed. While a run is active only the
   * position may change: positions are layout, not part of what a run executes.
   */
  async updateNode(workflowId: string, nodeId: string, input: UpdateNodeInput): Promise<Outcome<NodeEditResult>> {
    const invalid = checkPosition(input.position, ["input", "position"]);
    if (invalid.length > 0) return failure(...invalid);
    const outcome = await runWorkflowEdit(this.db, workflowId, async (tx, workflow) => {
      const current = await tx.workflowNode.findUnique({ where: { workflowId_key: { workflowId, key: nodeId } } });
      if (!current) refuse(noSuchNode(nodeId));
      const changesExecuted = EXECUTED_KEYS.some((key) => input[key] !== undefined);
      if (changesExecuted && workflow.activeRunId) refuse(lockedWhileRunning(workflow.activeRunId, { nodeIds: [nodeId] }));
      const attributes = withAttributes(attributesOf(current), input);
      const read =
        input.config === undefined
          ? { node: nodeOf(nodeId, current.type, attributes, configFromJson(current.config)), errors: [] }
          : readConfigInput(this.registry, nodeOf(nodeId, current.type, attributes, undefined), configOrNone(input.config), ["input"]);
      const after = read.node;
      const config = after.config;
      const errors = [...checkNodeAttributes(this.registry, current.type, attributes, ["input"]), ...read.errors];
      if (errors.length > 0) refuse(...errors.map((error) => ({ ...error, nodeIds: [nodeId] })));
      if (changesExecuted) await this.#checkNodeRules(tx, workflow, after, "update");
      return tx.workflowNode.update({
        where: { workflowId_key: { workflowId, key: nodeId } },
        data: {
          ...toColumns(attributes),
          config: configColumn(config),
          positionX: input.position?.x ?? current.positionX,
          positionY: input.position?.y ?? current.positionY,
        },
      });
    }, this.changes, ["workflowId"]);
    return outcome.ok ? { ok: true, value: { node: outcome.value.value, workflow: outcome.value.workflow } } : outcome;
  }

  /** Saves canvas positions in bulk. Layout only, so it is allowed while a run is active. */
  async moveNodes(workflowId: string, moves: readonly NodeMoveInput[]): Promise<Outcome<{ workflow: WorkflowRow }>> {
    const invalid = checkMoves(moves);
    if (invalid.length > 0) return failure(...invalid);
    const outcome = await runWorkflowEdit(this.db, workflowId, async (tx) => {
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
    }, this.changes, ["workflowId"]);
    return outcome.ok ? { ok: true, value: { workflow: outcome.value.workflow } } : outcome;
  }

  /** Removes a node and every edge touching it. */
  async removeNode(workflowId: string, nodeId: string): Promise<Outcome<NodeRemoval>> {
    const outcome = await runWorkflowEdit(this.db, workflowId, async (tx, workflow) => {
      const [node] = await nodesByKey(tx, workflowId, [nodeId]);
      if (!node) refuse(noSuchNode(nodeId));
      if (workflow.activeRunId) refuse(lockedWhileRunning(workflow.activeRunId, { nodeIds: [nodeId] }));
      const slice = await this.#countSlice(tx, workflowId, node.type);
      if (!slice.nodes.some((candidate) => candidate.id === nodeId)) slice.nodes.push(node);
      const violations = checkRemoveNode(slice, nodeId, { registry: this.registry });
      if (violations.length > 0) refuse(...violations.map(violationToUserError));
      const touching = await edgesTouching(tx, workflowId, nodeId);
      // Its edges go with it (the foreign keys cascade).
      await tx.workflowNode.delete({ where: { workflowId_key: { workflowId, key: nodeId } } });
      return touching;
    }, this.changes, ["workflowId"]);
    if (!outcome.ok) return outcome;
    return { ok: true, value: { removedNodeId: nodeId, removedEdgeIds: outcome.value.value, workflow: outcome.value.workflow } };
  }

  /**
   * The edit-time rules a node's config is subject to (CEL expressions, ports of its edges and loops,
   * state channels it writes, body ids unique in the workflow), judged by checkEdit updateNode on the
   * whole graph: the violations the node as it will be adds. A seed-000 workflow whose node has no
   * config has nothing to check here (its count rules are checked on a slice).
   */
  async #checkNodeRules(tx: Prisma.TransactionClient, workflow: LockedWorkflow, node: WorkflowNode, edit: "add" | "update"): Promise<void> {
    if (!node.config && (await checkedOnSlices(tx, workflow.row, this.registry))) return;
    const graph = await loadWorkflow(tx, workflow);
    const bare: WorkflowNode = { id: node.id, type: node.type };
    const before = edit === "add" ? { ...graph, nodes: [...graph.nodes, bare] } : graph;
    const clashes = checkNodeIdsUnique(this.registry, graph.nodes, node, ["input"]);
    if (clashes.length > 0) refuse(...clashes);
    const violations = checkEdit(before, { kind: "updateNode", nodeId: node.id, node }, { registry: this.registry });
    if (violations.length > 0) refuse(...violations.map(violationToUserError));
  }

  /** What the count rules of a type read: the nodes of that type, when its registry entry has a count rule. */
  #countSlice(tx: Prisma.TransactionClient, workflowId: string, type: string): Promise<WorkflowGraph> {
    return this.registry.get(type)?.count ? nodesOfType(tx, workflowId, type) : Promise.resolve({ nodes: [], edges: [] });
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
  if (row.params && typeof row.params === "object" && !Array.isArray(row.params)) {
    attributes.params = row.params as Record<string, unknown>;
  }
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

function toColumns(attributes: NodeAttributes): Pick<
  Prisma.WorkflowNodeUncheckedCreateInput,
  "content" | "provider" | "model" | "params" | "prompt"
> {
  return {
    content: attributes.content ?? null,
    provider: attributes.provider ?? null,
    model: attributes.model ?? null,
    params: attributes.params ? (attributes.params as Prisma.InputJsonObject) : Prisma.DbNull,
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
