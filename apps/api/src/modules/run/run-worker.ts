import { parsePreparedRun, runWorkflow, WeftError, type ConcurrencyLimiter, type LlmProviders, type NodeTypeRegistry, type Retriever } from "@weft/engine";
import type { PrismaClient } from "../../generated/prisma/client.js";
import type { Logger } from "../../logger.js";
import type { EventBus } from "../../pubsub.js";
import { RunEventRecorder } from "./run-event-recorder.js";
import type { RunEventWriter } from "./run-event-writer.js";
import { terminateRun } from "./run-termination.js";

export interface RunWorkerDeps {
  db: PrismaClient;
  bus: EventBus;
  registry: NodeTypeRegistry;
  llm: LlmProviders;
  retriever: Retriever | null;
  /** Stores the events of every run of the process, several runs' batches per statement. */
  eventWriter: RunEventWriter;
  /** Process-wide cap on node executions, shared by every run. */
  limiter: ConcurrencyLimiter;
  logger: Logger;
}

/**
 * Executes one accepted run: its snapshot is the engine's PreparedRun, handed to the engine as it is
 * (never the live workflow, never resolved again). Every engine event goes through the recorder (stored,
 * then published). If the snapshot cannot be read, the engine refuses to start or the recorder fails,
 * the run is ended FAILED here so nothing stays active.
 */
export async function executeRun(deps: RunWorkerDeps, runId: string, signal: AbortSignal): Promise<void> {
  const run = await deps.db.run.findUnique({ where: { id: runId }, select: { status: true, workflowId: true, versionNumber: true, snapshot: true } });
  if (!run || run.status !== "QUEUED") return;
  const recorder = new RunEventRecorder(deps.eventWriter, deps.bus, { workflowId: run.workflowId, version: run.versionNumber });
  try {
    await runWorkflow({
      runId,
      prepared: parsePreparedRun(run.snapshot),
      registry: deps.registry,
      providers: deps.llm,
      retriever: deps.retriever,
      onEvent: recorder.record,
      signal,
      options: { limiter: deps.limiter },
    });
  } catch (error) {
    deps.logger.error({ err: error, runId }, "run could not be executed");
    const code = error instanceof WeftError ? error.code : "RUN_EXECUTION_FAILED";
    const message = error instanceof WeftError ? error.message : "the run stopped because of an internal error";
    // Batches still in flight take the next seqs; the terminal event must come after them.
    await recorder.idle();
    const ended = await terminateRun(deps.db, runId, { kind: "failed", code, message });
    if (ended) for (const message of ended.messages) await recorder.publish(message, message === ended.messages.at(-1) ? ended.status : null);
  }
  await logRunEnd(deps, runId);
}

/** One log line per run that ends here: operators follow runs in the service's logs without a client. */
async function logRunEnd(deps: Pick<RunWorkerDeps, "db" | "logger">, runId: string): Promise<void> {
  const run = await deps.db.run.findUnique({
    where: { id: runId },
    select: { workflowId: true, status: true, error: true, startedAt: true, finishedAt: true, totalTokens: true },
  });
  if (!run || run.status === "QUEUED" || run.status === "RUNNING") return;
  const durationMs = run.startedAt && run.finishedAt ? run.finishedAt.getTime() - run.startedAt.getTime() : null;
  const errorCode = (run.error as { code?: string } | null)?.code;
  const fields = { runId, workflowId: run.workflowId, status: run.status, durationMs, totalTokens: run.totalTokens, ...(errorCode ? { errorCode } : {}) };
  if (run.status === "FAILED") deps.logger.warn(fields, "run failed");
  else deps.logger.info(fields, run.status === "COMPLETED" ? "run completed" : "run cancelled");
}
