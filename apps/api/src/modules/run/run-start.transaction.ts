import {
  availableModelsOf,
  DEFAULT_TOP_K,
  resolveRunSettings,
  validateWorkflow,
  type LlmProviders,
  type NodeTypeRegistry,
  type Workflow,
} from "@weft/engine";
import { Prisma, type PrismaClient, type Run as RunRow } from "../../generated/prisma/client.js";
import type { Env } from "../../env.js";
import { userError, violationToUserError, type UserError } from "../common/user-error.type.js";
import { NODE_ORDER } from "../workflow/workflow-edit.transaction.js";
import { findActiveRunId, lockWorkflowRow } from "../workflow/workflow-lock.js";
import { workflowFromRows } from "../workflow/workflow.mapper.js";
import type { StoredRunRequest } from "./run-request.validation.js";
import type { RunSnapshot } from "./run-snapshot.js";

export type StartOutcome = { ok: true; run: RunRow } | { ok: false; errors: UserError[] };

export interface StartDeps {
  db: PrismaClient;
  env: Env;
  registry: NodeTypeRegistry;
  llm: LlmProviders;
}

class StartRefused extends Error {
  constructor(readonly errors: UserError[]) {
    super("run refused");
  }
}

const START_TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 30_000 } as const;

/**
 * Accepts a run or refuses it with every reason. Inside one transaction holding the workflow's row lock
 * (the same lock every graph edit takes): no other active run, the whole graph passes every rule
 * (MODEL_UNAVAILABLE against the configured providers), the knowledge base exists, input contents name
 * input nodes. Then the run is inserted QUEUED with its snapshot, its node runs PENDING, and
 * activeLock = workflowId; the unique index on activeLock backs the lock against any path that skips it.
 */
export async function startRunTransaction(
  deps: StartDeps,
  workflowId: string,
  request: StoredRunRequest,
  inputNodeIds: readonly string[],
  apiKeyId: string | null,
): Promise<StartOutcome> {
  try {
    const run = await deps.db.$transaction(async (tx) => {
      if (!(await lockWorkflowRow(tx, workflowId))) {
        throw new StartRefused([userError("NOT_FOUND", `workflow "${workflowId}" does not exist`, { path: ["workflowId"] })]);
      }
      const activeRunId = await findActiveRunId(tx, workflowId);
      if (activeRunId) throw new StartRefused([lockedError(activeRunId)]);
      const row = await tx.workflow.findUniqueOrThrow({ where: { id: workflowId } });
      const nodes = await tx.workflowNode.findMany({ where: { workflowId }, orderBy: NODE_ORDER });
      const edges = await tx.workflowEdge.findMany({ where: { workflowId }, orderBy: { position: "asc" } });
      const workflow = workflowFromRows(row, nodes, edges);
      const errors = [...checkGraph(deps, workflow), ...checkInputNodes(deps, workflow, inputNodeIds)];
      const snapshot = buildSnapshot(deps.env, workflow, request);
      if (snapshot.settings.knowledgeBase) {
        const kb = await tx.knowledgeBase.findUnique({ where: { name: snapshot.settings.knowledgeBase }, select: { id: true } });
        if (!kb) errors.push(userError("NOT_FOUND", `knowledge base "${snapshot.settings.knowledgeBase}" does not exist`, { path: ["input", "knowledgeBase"] }));
      }
      if (errors.length > 0) throw new StartRefused(errors);
      const created = await tx.run.create({
        data: {
          workflowId,
          status: "QUEUED",
          request: request as unknown as Prisma.InputJsonObject,
          snapshot: snapshot as unknown as Prisma.InputJsonObject,
          activeLock: workflowId,
          apiKeyId,
        },
      });
      await tx.nodeRun.createMany({
        data: workflow.nodes.map((node) => ({ runId: created.id, nodeKey: node.id, nodeType: node.type })),
      });
      return created;
    }, START_TRANSACTION_OPTIONS);
    return { ok: true, run };
  } catch (error) {
    if (error instanceof StartRefused) return { ok: false, errors: error.errors };
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      return { ok: false, errors: [lockedError(null)] };
    }
    throw error;
  }
}

function lockedError(activeRunId: string | null): UserError {
  const which = activeRunId ? ` (run ${activeRunId})` : "";
  return userError("LOCKED_WHILE_RUNNING", `this workflow already has an active run${which}; wait for it or cancel it`);
}

function checkGraph(deps: StartDeps, workflow: Workflow): UserError[] {
  return validateWorkflow(workflow, { registry: deps.registry, models: availableModelsOf(deps.llm) }).map(violationToUserError);
}

function checkInputNodes(deps: StartDeps, workflow: Workflow, inputNodeIds: readonly string[]): UserError[] {
  const errors: UserError[] = [];
  const byId = new Map(workflow.nodes.map((node) => [node.id, node]));
  inputNodeIds.forEach((nodeId, index) => {
    const node = byId.get(nodeId);
    const spec = node ? deps.registry.get(node.type) : undefined;
    if (!node || (spec && spec.inDegree.max !== 0)) {
      const why = node ? `"${nodeId}" is not an input node` : `there is no node "${nodeId}"`;
      errors.push(userError("VALIDATION_FAILED", `content was given for a node that cannot take it: ${why}`, {
        nodeIds: node ? [nodeId] : [],
        path: ["input", "inputs", String(index), "nodeId"],
      }));
    }
  });
  return errors;
}

function buildSnapshot(env: Env, workflow: Workflow, request: StoredRunRequest): RunSnapshot {
  const topK = { ...DEFAULT_TOP_K, LOW: env.WEFT_TOPK_LOW, MEDIUM: env.WEFT_TOPK_MEDIUM, HIGH: env.WEFT_TOPK_HIGH };
  const settings = resolveRunSettings(workflow, request, {
    topK,
    parseRepair: env.WEFT_PARSE_REPAIR,
    streamTokens: request.streamTokens,
  });
  return { version: 1, workflow, settings, options: { concurrency: env.WEFT_RUN_CONCURRENCY } };
}
