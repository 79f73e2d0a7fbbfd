import { prepareRun, type NodeTypeRegistry, type RunPolicy, type RunViolation } from "@weft/engine";
import { Prisma, type PrismaClient, type Run as RunRow } from "../../generated/prisma/client.js";
import { NODE_ORDER } from "../workflow/workflow-edit.transaction.js";
import { findActiveRunId, lockWorkflowRow } from "../workflow/workflow-lock.js";
import { workflowFromRows } from "../workflow/workflow.mapper.js";
import type { StoredRunRequest } from "./run-request.validation.js";
import { userError, type UserError } from "../../errors/user-error.type.js";
import type { Outcome } from "../../errors/outcome.js";


export interface StartDeps {
  db: PrismaClient;
  registry: NodeTypeRegistry;
  /** Everything prepareRun needs from the server but the knowledge bases, which are read per start. */
  policy: RunPolicy;
}

class StartRefused extends Error {
  constructor(readonly errors: UserError[]) {
    super("run refused");
  }
}

const START_TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 30_000 } as const;

/**
 * Accepts a run or refuses it with every reason. Inside one transaction holding the workflow's row lock
 * (the same lock every graph edit takes): no other active run, then the engine's prepareRun checks the
 * whole graph (MODEL_UNAVAILABLE against the configured providers), the knowledge base and the input
 * contents, and freezes what the run executes. The run is inserted QUEUED with that prepared run as its
 * snapshot, its node runs PENDING, and activeLock = workflowId; the unique index on activeLock backs the
 * lock against any path that skips it.
 */
export async function startRunTransaction(
  deps: StartDeps,
  workflowId: string,
  request: StoredRunRequest,
  inputNodeIds: readonly string[],
  apiKeyId: string | null,
): Promise<Outcome<RunRow>> {
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
      const knowledgeBases = await existingKnowledgeBases(tx, [request.knowledgeBase, workflow.knowledgeBase]);
      const prepared = prepareRun(workflow, request, { ...deps.policy, registry: deps.registry, knowledgeBases });
      if (!prepared.ok) throw new StartRefused(prepared.violations.map((violation) => toUserError(violation, inputNodeIds)));
      const created = await tx.run.create({
        data: {
          workflowId,
          status: "QUEUED",
          request: request as unknown as Prisma.InputJsonObject,
          snapshot: prepared.run as unknown as Prisma.InputJsonObject,
          activeLock: workflowId,
          apiKeyId,
        },
      });
      await tx.nodeRun.createMany({
        data: workflow.nodes.map((node) => ({ runId: created.id, nodeKey: node.id, nodeType: node.type })),
      });
      return created;
    }, START_TRANSACTION_OPTIONS);
    return { ok: true, value: run };
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

/** Which of the names the run may use (the request's or the workflow's) exist. */
async function existingKnowledgeBases(tx: Prisma.TransactionClient, names: (string | null | undefined)[]): Promise<string[]> {
  const candidates = names.filter((name): name is string => typeof name === "string" && name !== "");
  if (candidates.length === 0) return [];
  const rows = await tx.knowledgeBase.findMany({ where: { name: { in: candidates } }, select: { name: true } });
  return rows.map((row) => row.name);
}

/**
 * The engine's reasons in the API's terms: rule violations keep their codes; a request field at fault
 * keeps the API's input codes and points at the field as the client sent it (`input.inputs.<i>.nodeId`).
 */
function toUserError(violation: RunViolation, inputNodeIds: readonly string[]): UserError {
  const [field, nodeId] = violation.requestPath ?? [];
  const refs = { nodeIds: violation.nodeIds, edgeIds: violation.edgeIds };
  if (field === "inputs") {
    const index = inputNodeIds.indexOf(nodeId ?? "");
    return userError("VALIDATION_FAILED", violation.message, { ...refs, path: ["input", "inputs", String(index), "nodeId"] });
  }
  if (field === "knowledgeBase") return userError("NOT_FOUND", violation.message, { ...refs, path: ["input", "knowledgeBase"] });
  return userError(violation.code, violation.message, refs);
}
