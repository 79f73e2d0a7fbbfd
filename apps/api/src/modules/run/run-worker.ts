import {
  parsePreparedRun,
  resumeFromEvents,
  runWorkflow,
  WeftError,
  type ConcurrencyLimiter,
  type LlmProviders,
  type NodeTypeRegistry,
  type Retriever,
  type PreparedRun,
  type RunEvent,
  type RunEventHandler,
  type RunOutcome,
  type RunResume,
  type ThreadRetention,
  type ToolProviders,
  type WorkflowRevision,
} from "@weft/engine";
import type { PrismaClient } from "../../generated/prisma/client.js";
import type { Logger } from "../../logger.js";
import { ALL_RUNS, type EventBus } from "../../pubsub.js";
import { DatabaseThreadHistory, recordingTurn } from "../thread/index.js";
import { HANDOVER_REASON, type RunWorkerEnd } from "../../queue/run-queue.js";
import { claimRunToExecute, releaseRun, type RunClaim } from "./run-claim.js";
import { nodeTypesOf } from "./node-types-of.js";
import { RunEventRecorder } from "./run-event-recorder.js";
import { wantsStateEvents } from "./run-request.validation.js";
import { isRunFenced, type RunEventWriter } from "./run-event-writer.js";
import { endRun, logRunEnd, type Termination } from "./run-ending.js";
import { exhaustedMessage } from "./crash-suspects.js";
import { judgeCrashes, readStoredEvents, type StoredEventRow } from "./run-crash-watch.js";
import type { LiveAnswers } from "./run-answers.js";
import { ExecutionHumanSteps, humanTaskId, type TaskTimeouts } from "./run-human-steps.js";
import { parkRun } from "./run-parking.js";

export interface RunWorkerDeps {
  db: PrismaClient;
  bus: EventBus;
  registry: NodeTypeRegistry;
  llm: LlmProviders;
  retriever: Retriever | null;
  /** The tool nodes' providers; each run adds the workflow version it executes. */
  tools: Omit<ToolProviders, "workflowVersion">;
  /** Stores the events of every run of the process, several runs' batches per statement. */
  eventWriter: RunEventWriter;
  /** Process-wide cap on node executions, shared by every run. */
  limiter: ConcurrencyLimiter;
  logger: Logger;
  /** WEFT_RUN_MAX_ATTEMPTS: crashes of a run's worker with the same node invocation in flight before the run ends FAILED. */
  maxAttempts: number;
  /** Sees every event of the runs executed here (metrics, traces), the closing events of those it ends itself (endRun) included. */
  observe?: ((event: RunEvent) => void) | undefined;
  /** Whether the worker process named (a run's last claim) is still alive: the run queue knows its workers. */
  workerAlive: (workerId: string) => Promise<boolean>;
  /** WEFT_THREAD_MAX_MESSAGES / _AGE_DAYS: what threads keep. */
  threadRetention: ThreadRetention;
  /** Answers to tasks closed while this process executes their runs. */
  liveAnswers: LiveAnswers;
  /** Keeps the timeouts of the tasks runs open here; null: none (tests of the worker alone). */
  taskTimeouts: TaskTimeouts | null;
}

/** An execution ended WAITING but a task was closed meanwhile: the run is executed again at once. */
const AGAIN = Symbol("again");

/**
 * Executes one accepted run: its snapshot is the engine's PreparedRun, handed to the engine as it is
 * (never the live workflow, never resolved again). The worker first claims the run (a new attempt,
 * run-claim.ts); every engine event goes through the recorder (stored under that attempt, then
 * published). If the snapshot cannot be read, the engine refuses to start or the recorder fails, the run
 * is ended FAILED here (endRun) so nothing stays active — unless a write was fenced off: then another
 * attempt owns the run (or it ended) and this worker only stops. Aborted with HANDOVER_REASON (its
 * process is stopping), it hands the run over instead of ending it.
 */
export async function executeRun(deps: RunWorkerDeps, runId: string, signal: AbortSignal): Promise<RunWorkerEnd | void> {
  for (;;) {
    const end = await executeAttempt(deps, runId, signal);
    if (end !== AGAIN) return end;
  }
}

async function executeAttempt(deps: RunWorkerDeps, runId: string, signal: AbortSignal): Promise<RunWorkerEnd | void | typeof AGAIN> {
  if (signal.aborted) return handingOver(signal) ? "handed over" : undefined;
  // One statement claims the run (if it is still active) and reads what it executes.
  const claimed = await claimRunToExecute(deps.db, runId);
  if (!claimed) return;
  const { claim, run } = claimed;
  // What an earlier attempt stored: the resume goes on from it, and it tells what was in flight if that attempt's worker died.
  const stored = claim.status === "RUNNING" ? await readStoredEvents(deps.db, runId, claim.lastSeq) : [];
  const crashes = await judgeCrashes(deps, runId, claim, stored);
  if (crashes.kind === "fenced") return;
  if (crashes.kind === "exhausted") {
    deps.logger.warn({ runId, attempt: claim.attempt, suspects: crashes.watch.suspects }, "the same node invocation was executing at each crash of the run's worker; it ends FAILED");
    await endRun(deps, runId, { kind: "failed", code: "RUN_ATTEMPTS_EXHAUSTED", message: exhaustedMessage(crashes.watch) }, claim);
    return;
  }
  // Filled once the snapshot is read.
  const nodeTypes = new Map<string, string>();
    const scope = { workflowId: run.workflowId, version: run.versionNumber };
    const recorder = new RunEventRecorder(deps.eventWriter, deps.bus, scope, nodeTypes, claim.attempt, crashes.careful);
    let ended: { outcome: RunOutcome; steps: ExecutionHumanSteps };
    try {
      ended = await execute(deps, { ...run, id: runId }, { claim, recorder, nodeTypes, signal, stored, crashes });
  } catch (error) {
    // Batches still in flight take the next seqs; the terminal event must come after them.
    await recorder.idle();
    if (isRunFenced(error)) {
      deps.logger.warn({ runId, attempt: claim.attempt }, "run taken over by another attempt (or ended elsewhere); this worker stops executing it");
      return;
    }
    if (handingOver(signal)) return handOver(deps, recorder, runId, claim);
    deps.logger.error({ err: error, runId }, "run could not be executed");
    await endRun(deps, runId, failureOf(error), claim);
    return;
  }
  const waiting = ended.outcome.status === "WAITING";
  await ended.steps.ended(!waiting);
  if (handingOver(signal)) return handOver(deps, recorder, runId, claim);
  if (waiting) return park(deps, recorder, { id: runId, ...run }, claim, ended.steps.applied);
  await logEngineEnd(deps, runId, recorder);
}

/**
 * The engine paused the run for people (RUN_WAITING stored): it is parked WAITING and this worker lets
 * it go. If a task was closed in between without this execution taking its answer, the run is released
 * (a handover, not a failed attempt) and executed again at once.
 */
async function park(deps: RunWorkerDeps, recorder: RunEventRecorder, run: { id: string; workflowId: string; versionNumber: number | null }, claim: RunClaim, applied: string[]) {
  await recorder.stored();
  const parking = await parkRun(deps.db, run.id, claim.attempt, applied);
  if (parking === "answered") return (await releaseRun(deps.db, run.id, claim.attempt)) ? AGAIN : undefined;
  if (parking === "gone") return;
  await deps.bus.publish("runStatus", ALL_RUNS, { runId: run.id, workflowId: run.workflowId, version: run.versionNumber, status: "WAITING", at: new Date().toISOString() });
  deps.logger.info({ runId: run.id, workflowId: run.workflowId }, "run waits for a person");
}

/** Why a run whose execution threw ends FAILED: the engine's own code, else an internal error (no detail: it may hold anything). */
function failureOf(error: unknown): Termination {
  if (error instanceof WeftError) return { kind: "failed", code: error.code, message: error.message };
  return { kind: "failed", code: "RUN_EXECUTION_FAILED", message: "the run stopped because of an internal error" };
}

interface Execution {
  claim: RunClaim;
  recorder: RunEventRecorder;
  nodeTypes: Map<string, string>;
  signal: AbortSignal;
  stored: readonly StoredEventRow[];
  crashes: { careful: boolean; alone: boolean };
}

type RunRow = { id: string; workflowId: string; versionNumber: number | null; editVersion: number | null; snapshot: unknown; request: unknown; threadId: string | null };

/**
 * The engine's run of the claimed attempt, from the start or resumed after the stored events (a run a
 * worker left, or one continuing after a task was closed), with the answers of its tasks.
 */
async function execute(deps: RunWorkerDeps, run: RunRow, { claim, recorder, nodeTypes, signal, stored, crashes }: Execution): Promise<{ outcome: RunOutcome; steps: ExecutionHumanSteps }> {
  const prepared = parsePreparedRun(run.snapshot);
  for (const [nodeId, type] of nodeTypesOf(prepared.workflow, deps.registry)) nodeTypes.set(nodeId, type);
  const resume = claim.status === "RUNNING" ? resumeOf(claim, stored) : null;
  if (resume?.record.waiting?.size) deps.logger.info({ runId: run.id, attempt: claim.attempt, lastSeq: claim.lastSeq }, "continuing a run that waited for a person");
  else if (resume) deps.logger.warn({ runId: run.id, attempt: claim.attempt, lastSeq: claim.lastSeq }, "resuming a run whose worker stopped");
  const thread = threadOf(deps, run.threadId, { runId: run.id, attempt: claim.attempt, prepared });
  const steps = await ExecutionHumanSteps.start({ db: deps.db, bus: deps.bus, live: deps.liveAnswers, timeouts: deps.taskTimeouts, logger: deps.logger }, run, resume?.record ?? null);
  const record = steps.handler(observed(deps.observe, thread ? thread.onEvent(recorder.record) : recorder.record));
  const outcome = await runWorkflow({
    runId: run.id,
    prepared,
    registry: deps.registry,
    providers: deps.llm,
    retriever: deps.retriever,
    tools: { ...deps.tools, workflowVersion: revisionOf(run), ...(thread ? { thread: thread.history } : {}) },
    // Once the run is being handed over, what the engine still emits (its running nodes failing with
    // RUN_CANCELLED, then RUN_CANCELLED) is not the run's story: none of it is stored or published.
    onEvent: (event) => (handingOver(signal) ? Promise.resolve() : record(event)),
    signal,
    options: {
      limiter: crashes.alone ? deps.limiter.exclusive() : deps.limiter,
      recordInFlight: crashes.careful,
      stateEvents: wantsStateEvents(run.request),
      taskId: (nodeId, invocation) => humanTaskId(run.id, nodeId, invocation),
    },
    resume,
    humanAnswers: steps.answers,
  }).catch(async (error: unknown) => {
    await steps.ended(false);
    throw error;
  });
  return { outcome, steps };
}

const handingOver = (signal: AbortSignal): boolean => signal.aborted && signal.reason === HANDOVER_REASON;

/**
 * Gives the run back to the queue: what was emitted before the abort is stored (and published), then the
 * claim is released, so the next worker resumes after the last stored seq (RUN_RESUMED) with no event
 * lost or repeated. A run that ended first (or that another attempt holds) is not handed over; if its
 * engine had ended it, that end is logged here.
 */
async function handOver(deps: RunWorkerDeps, recorder: RunEventRecorder, runId: string, claim: RunClaim): Promise<RunWorkerEnd | void> {
  await recorder.idle();
  if (!(await releaseRun(deps.db, runId, claim.attempt))) return logEngineEnd(deps, runId, recorder);
  deps.logger.info({ runId, attempt: claim.attempt }, "handing the run over to another worker");
  return "handed over";
}

/**
 * A run an earlier attempt had started (its worker stopped): the engine replays every invocation that
 * had finished from the stored events (no provider call, no event twice) and executes the rest, with
 * seqs continuing after the stored ones (RUN_RESUMED first).
 */
function resumeOf(claim: RunClaim, rows: readonly StoredEventRow[]): RunResume {
  const events = rows.map((row) => ({ ...(row.payload as Record<string, unknown>), type: row.type, nodeId: row.nodeKey ?? undefined, at: row.at.toISOString() }));
  return { attempt: claim.attempt, lastSeq: claim.lastSeq, record: resumeFromEvents(events) };
}

/** The recorder's handler, with the process's observer (metrics, traces) seeing each event first. */
function observed(observe: RunWorkerDeps["observe"], record: RunEventHandler): RunEventHandler {
  if (!observe) return record;
  return (event) => {
    observe(event);
    return record(event);
  };
}

/** A run on a thread: its history nodes read the thread, and its turn is recorded as it completes. */
function threadOf(deps: RunWorkerDeps, threadId: string | null, run: { runId: string; attempt: number; prepared: PreparedRun }) {
  if (threadId === null) return null;
  const threadRun = { db: deps.db, registry: deps.registry, retention: deps.threadRetention, threadId, ...run };
  return {
    history: new DatabaseThreadHistory(deps.db, threadId, deps.threadRetention),
    onEvent: (record: RunEventHandler) => recordingTurn(threadRun, record),
  };
}

/**
 * What the run executes, which scopes its semantic caches: a published version by number, the draft by
 * the edit version it started from (`workflow:<id>:draft@<n>`: an edit starts a fresh cache).
 */
function revisionOf(run: { workflowId: string; versionNumber: number | null; editVersion: number | null }): WorkflowRevision {
  if (run.versionNumber !== null) return { workflowId: run.workflowId, version: run.versionNumber };
  return { workflowId: run.workflowId, version: run.editVersion ?? 0, draft: true };
}

/**
 * The log line of a run this attempt's engine ended (its terminal event stored and published by the
 * recorder); runs ended any other way are logged by endRun. Only a resumed run's start (an earlier
 * attempt's RUN_STARTED) is read from its row.
 */
async function logEngineEnd(deps: Pick<RunWorkerDeps, "db" | "logger">, runId: string, recorder: RunEventRecorder): Promise<void> {
  const ended = recorder.ended;
  if (!ended) return;
  const startedAt = ended.startedAt ?? (await deps.db.run.findUnique({ where: { id: runId }, select: { startedAt: true } }))?.startedAt ?? null;
  logRunEnd(deps.logger, { ...ended, runId, startedAt });
}
