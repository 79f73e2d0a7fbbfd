import { prepareRun, type NodeTypeRegistry, type RunPolicy, type RunViolation } from "@weft/engine";
import { Prisma, type PrismaClient, type Run as RunRow } from "../../generated/prisma/client.js";
import { failure, type Outcome } from "../../errors/outcome.js";
import { userError, type UserError } from "../../errors/user-error.type.js";
import { loadWorkflow, lockedWhileRunning, refuse, withLockedWorkflow } from "../workflow/index.js";
import type { StoredRunRequest } from "./run-request.validation.js";

export interface StartDeps {
  db: PrismaClient;
  registry: NodeTypeRegistry;
  /** Everything prepareRun needs from the server but the knowledge bases, which are read per start. */
  policy: RunPolicy;
}

/**
 * Accepts a run or refuses it with every reason. Through the workflow module's lock and load (the same
 * row lock every graph edit takes): no other active run, then the engine's prepareRun checks the whole
 * graph (MODEL_UNAVAILABLE against the configured providers), the knowledge base and the input contents,
 * and freezes what the run executes. The run is inserted QUEUED with that prepared run as its snapshot,
 * its node runs PENDING, and activeLock = workflowId; the unique index on activeLock backs the lock
 * against any path that skips it.
 */
export async function startRunTransaction(
  deps: StartDeps,
  workflowId: string,
  request: StoredRunRequest,
  inputNodeIds: readonly string[],
  apiKeyId: string | null,
): Promise<Outcome<RunRow>> {
  try {
    return await withLockedWorkflow(deps.db, workflowId, async (tx, locked) => {
      if (locked.activeRunId) refuse(lockedWhileRunning(locked.activeRunId));
      const workflow = await loadWorkflow(tx, locked);
      const knowledgeBases = await existingKnowledgeBases(tx, [request.knowledgeBase, workflow.knowledgeBase]);
      const prepared = prepareRun(workflow, request, { ...deps.policy, registry: deps.registry, knowledgeBases });
      if (!prepared.ok) refuse(...prepared.violations.map((violation) => toUserError(violation, inputNodeIds)));
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
    });
  } catch (error) {
    // A run start that skipped the lock would still meet the unique index on activeLock.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") return failure(lockedWhileRunning(null));
    throw error;
  }
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
