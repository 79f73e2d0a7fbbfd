import { DEFAULT_TOP_K, runWorkflow, WeftError, type ConcurrencyLimiter, type LlmProviders, type NodeTypeRegistry, type Retriever } from "@weft/engine";
import type { PrismaClient } from "../../generated/prisma/client.js";
import type { Logger } from "../../logger.js";
import type { EventBus } from "../../pubsub.js";
import { RunEventRecorder } from "./run-event-recorder.js";
import type { StoredRunRequest } from "./run-request.validation.js";
import { parseSnapshot } from "./run-snapshot.js";
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
 * Executes one accepted run from its snapshot (never from the live workflow). Every engine event goes
 * through the recorder (stored, then published). If the engine refuses to start or the recorder fails,
 * the run is ended FAILED here so nothing stays active.
 */
export async function executeRun(deps: RunWorkerDeps, runId: string, signal: AbortSignal): Promise<void> {
  const run = await deps.db.run.findUnique({ where: { id: runId } });
  if (!run || run.status !== "QUEUED") return;
  const snapshot = parseSnapshot(run.snapshot);
  const request = run.request as unknown as StoredRunRequest;
  const recorder = new RunEventRecorder(deps.eventWriter, deps.bus, run.workflowId);
  const { settings } = snapshot;
  try {
    await runWorkflow({
      runId,
      workflow: snapshot.workflow,
      registry: deps.registry,
      request: {
        prompts: settings.prompts,
        outputFormat: settings.outputFormat,
        knowledgeBase: settings.knowledgeBase,
        intensity: settings.intensity,
        inputs: request.inputs ?? {},
      },
      providers: deps.llm,
      retriever: deps.retriever,
      onEvent: recorder.record,
      signal,
      options: {
        concurrency: snapshot.options.concurrency,
        limiter: deps.limiter,
        parseRepair: settings.parseRepair,
        streamTokens: settings.streamTokens,
        topK: { ...DEFAULT_TOP_K, [settings.intensity]: settings.topK },
      },
    });
  } catch (error) {
    deps.logger.error({ err: error, runId }, "run could not be executed");
    const code = error instanceof WeftError ? error.code : "RUN_EXECUTION_FAILED";
    const message = error instanceof WeftError ? error.message : "the run stopped because of an internal error";
    // Batches still in flight take the next seqs; the terminal event must come after them.
    await recorder.idle();
    const ended = await terminateRun(deps.db, runId, { kind: "failed", code, message });
    if (ended) await recorder.publish(ended.message, ended.status);
  }
}
