import { ConcurrencyLimiter, resolveRunLimits, type Retriever, type RunEvent, type RunLimits, type ToolProviders } from "@weft/engine";
import { Prisma } from "../../generated/prisma/client.js";
import type { RawQueryable } from "../../db/raw-sql.js";
import type { AuthInfo } from "../../auth/auth-info.js";
import { AppError } from "../../errors/app-error.js";
import { ALL_RUNS, type EventBus, type RunEventMessage, type RunStatusMessage } from "../../pubsub.js";
import type { RunQueue, RunWorker } from "../../queue/run-queue.js";
import type { ServiceDeps } from "../../service-deps.js";
import { AsyncQueue } from "../common/async-queue.js";
import type { TriggerKind } from "../common/trigger-kind.type.js";
import { afterCursorWhere, badPageArgument, buildPage, readBound, readPage, type Page } from "../common/pagination.js";
import type { CallerBudget } from "../../rate-limit/caller-budget.js";
import { retryAfterSeconds } from "../../rate-limit/rate-limits.js";
import { EXECUTING_RUN_STATUSES, isActiveRunStatus, isExecutingRunStatus } from "../common/run-status.js";
import { DraftSnapshots } from "../workflow/index.js";
import { replayThenLive } from "./run-event-stream.js";
import { RunEventReplays, toEventMessage } from "./run-event-replay.js";
import type { RunsArgs, RunWorkflowInput } from "./run.input.js";
import { toNodeRunObject, toRunObject } from "./run.mapper.js";
import { checkRunRequest, type StoredRunRequest } from "./run-request.validation.js";
import { resolveFileInputs } from "./run-file-inputs.js";
import { runPolicyOf } from "./run-policy.js";
import { threadRetention } from "../thread/index.js";
import { startRunTransaction, type StartDeps, type StartRequest } from "./run-start.transaction.js";
import { endRun, type RunEndingDeps } from "./run-ending.js";
import { isUuid } from "../common/uuid.js";
import type { RunTracer } from "../../metrics/run-tracing.js";
import type { WeftMetrics } from "../../metrics/weft-metrics.js";
import type { VersionContent } from "../workflow-version/index.js";
import type { NodeRunObject, RunObject } from "./run.type.js";
import { executeRun } from "./run-worker.js";
import { NODE_RUN_ORDER, nodeRunPage, type NodeRunFilter } from "./node-run-page.js";
import { InlineWorkflowTools } from "./workflow-tools.js";
import { RunEventWriter } from "./run-event-writer.js";
import { deleteFinishedRun, finishedRunsBefore, type DeletedRun } from "./run-deletion.js";
import { LiveAnswers } from "./run-answers.js";
import type { TaskTimeouts } from "./run-human-steps.js";
import { continueWaitingRun } from "./run-parking.js";
import { userError, type UserError } from "../../errors/user-error.type.js";
import { failure, success, type Outcome } from "../../errors/outcome.js";

/** The RUN_CANCELLED reason when a client calls cancelRun. */
export const CANCEL_REASON = "cancelled by a client";


export interface RunServiceOptions {
  bus: EventBus;
  /** The database's raw handle (Database.raw): the event batches are written through it. */
  sql: RawQueryable;
  createQueue(worker: RunWorker): RunQueue;
  retriever?: Retriever | null;
  /** The tool nodes' knowledge bases, web search and semantic cache; the worker adds each run's workflow version. */
  tools?: Omit<ToolProviders, "workflowVersion">;
  /** WEFT_RATE_LIMIT_RUNS_PER_MINUTE per caller; absent: unlimited. */
  runBudget?: CallerBudget;
  /** A published version's parsed content (the version service's cache). */
  versionContent(versionId: string): Promise<VersionContent>;
  /** Prometheus metrics of this process. */
  metrics?: WeftMetrics;
  /** OpenTelemetry traces of the runs executed here, when configured. */
  tracer?: RunTracer | null;
  /** Keeps the timeouts of the tasks the runs executed here open (the human-task module's timers). */
  taskTimeouts?: TaskTimeouts;
}

export const MAX_EVENTS_PER_READ = 1000;

/** What a trigger's run executes (see startForTrigger). */
export interface TriggerStart {
  id: string;
  kind: TriggerKind;
  workflowId: string;
  version: number | null;
  /** The published version `version` names (or the latest), when the caller read it already; absent: read at the start. */
  pinned?: { id: string; number: number };
}

/** How a trigger's run is tied to its firing: a claimed firing it links, or a firing recorded with it (NewRun). */
export interface TriggerFiringLink {
  firingId?: string | null;
  recordFiring?: boolean;
}

/** Starts, cancels, lists and streams runs. Execution happens in the queue's workers (run-worker.ts). */
export class RunService {
  readonly bus: EventBus;
  readonly queue: RunQueue;
  readonly #runBudget: CallerBudget | null;
  readonly #start: StartDeps;
  readonly #metrics: WeftMetrics | null;
  /** The value limits of this server's runs (SPEC-V3 §1), from the run policy: what a trigger's mappings keep to as well. */
  readonly limits: RunLimits;
  readonly #ending: RunEndingDeps;
  readonly #replays: RunEventReplays;
  readonly #liveAnswers: LiveAnswers;

  constructor(
    readonly deps: ServiceDeps,
    options: RunServiceOptions,
  ) {
    this.bus = options.bus;
    this.#runBudget = options.runBudget ?? null;
    this.#start = {
      db: deps.db,
      registry: deps.registry,
      policy: runPolicyOf(deps.env, deps.llm),
      versionContent: options.versionContent,
      drafts: new DraftSnapshots(),
    };
    this.limits = resolveRunLimits(this.#start.policy.limits);
    const limiter = new ConcurrencyLimiter(deps.env.WEFT_PROCESS_CONCURRENCY);
    const retriever = options.retriever ?? null;
    const tools = options.tools ?? {};
    const metrics = options.metrics ?? null;
    // The metrics see a workflow tool's node events too (its models' tokens and cost count by model), not its run's end.
    const workflows = new InlineWorkflowTools({ ...this.#start, llm: deps.llm, retriever, tools, limiter, observe: metrics ? (event) => metrics.observeNestedEvent(event) : null });
    this.#liveAnswers = new LiveAnswers(deps.db, options.bus, deps.logger);
    const workerDeps = {
      db: deps.db,
      bus: options.bus,
      registry: deps.registry,
      llm: deps.llm,
      retriever,
      tools: { ...tools, workflows },
      eventWriter: new RunEventWriter(options.sql),
      limiter,
      logger: deps.logger,
      maxAttempts: deps.env.WEFT_RUN_MAX_ATTEMPTS,
      observe: observerOf(options.metrics ?? null, options.tracer ?? null),
      workerAlive: (workerId: string) => this.queue.workerAlive(workerId),
      threadRetention: threadRetention(deps.env),
      liveAnswers: this.#liveAnswers,
      taskTimeouts: options.taskTimeouts ?? null,
    };
    this.#metrics = options.metrics ?? null;
    this.#ending = { db: deps.db, bus: options.bus, logger: deps.logger, observe: workerDeps.observe };
    this.#replays = new RunEventReplays(deps.db);
    this.queue = options.createQueue((runId, signal) => executeRun(workerDeps, runId, signal));
  }

  /** `caller` is whose run budget this start spends (GraphQLContext.caller); every call counts, refused or not. */
  async start(workflowId: string, input: RunWorkflowInput | null | undefined, auth: AuthInfo, caller: string): Promise<Outcome<RunObject>> {
    const limited = await this.#spendRunBudget(caller);
    if (limited) return failure(limited);
    const resolved = await resolveFileInputs(input);
    if (!resolved.ok) return resolved;
    const checked = checkRunRequest(resolved.value);
    if (!checked.ok) return checked;
    const { request, inputNodeIds, target, threadId } = checked.value;
    return this.#accept({ workflowId, request, inputNodeIds, target, apiKeyId: auth.keyId, threadId });
  }

  /**
   * A run started by a webhook or a schedule: the trigger's version (null: the latest published, or the
   * draft while none is), its input contents already mapped, no API key. A webhook spends its trigger's
   * run budget first (spendRunBudget); schedule ticks spend none. `firing`: the claimed firing the run is
   * for (a tick, an Idempotency-Key) linked in the run's own insert, or a firing recorded with it (NewRun).
   */
  async startForTrigger(trigger: TriggerStart, contents: Readonly<Record<string, string>>, firing: TriggerFiringLink = {}): Promise<Outcome<RunObject>> {
    const inputs = Object.entries(contents).map(([nodeId, content]) => ({ nodeId, content }));
    const checked = checkRunRequest({ version: trigger.version, inputs });
    if (!checked.ok) return checked;
    const { request, inputNodeIds } = checked.value;
    const target = trigger.pinned ? ({ kind: "pinned", version: trigger.pinned } as const) : checked.value.target;
    return this.#accept({ workflowId: trigger.workflowId, request, inputNodeIds, target, apiKeyId: null, trigger: { id: trigger.id, kind: trigger.kind }, ...firing });
  }

  /**
   * A row of an experiment (SPEC-V3 §4): an ordinary run of the experiment's version (or the draft) with
   * the row's input contents, tagged with the experiment. No caller's run budget: the experiment's
   * concurrency and the process's share for experiments pace them (experiment-runner.ts).
   */
  async startForExperiment(experiment: { id: string; workflowId: string; version: number | null }, inputs: readonly { nodeId: string; content: string }[]): Promise<Outcome<RunObject>> {
    const checked = checkRunRequest({ ...(experiment.version === null ? { draft: true } : { version: experiment.version }), inputs: [...inputs] });
    if (!checked.ok) return checked;
    const { request, inputNodeIds, target } = checked.value;
    return this.#accept({ workflowId: experiment.workflowId, request, inputNodeIds, target, apiKeyId: null, experimentId: experiment.id });
  }

  /**
   * The run once it has stopped executing — ended, or WAITING for a person, which may take days — or as
   * it is when `timeoutMs` passes (a webhook in SYNC mode, an experiment's row). Subscribes before
   * reading, so a change published in between is not missed.
   */
  async awaitEnd(runId: string, timeoutMs: number): Promise<RunObject | null> {
    let unsubscribe: (() => void) | null = null;
    let wake: () => void = () => undefined;
    const ended = new Promise<void>((resolve) => (wake = resolve));
    try {
      unsubscribe = await this.bus.subscribe("runStatus", ALL_RUNS, (message) => {
        if (message.runId === runId && !isExecutingRunStatus(message.status)) wake();
      });
      // Its status only (the row holds the run's whole snapshot): a run just started is still executing.
      const now = await this.deps.db.run.findUnique({ where: { id: runId }, select: { status: true } });
      if (!now) return null;
      if (!isExecutingRunStatus(now.status)) return this.get(runId);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(timer);
      return this.get(runId);
    } finally {
      unsubscribe?.();
    }
  }

  /**
   * Starts a new run of what run `runId` executed — the same published version (or the draft as it is
   * now, for a run of the draft) — with the same request and input contents, linked to it (rerunOf).
   * It does not continue the original's thread (that conversation has moved on): a workflow that reads a
   * thread re-runs on a new one.
   */
  async rerun(runId: string, auth: AuthInfo, caller: string): Promise<Outcome<RunObject>> {
    const limited = await this.#spendRunBudget(caller);
    if (limited) return failure(limited);
    const original = isUuid(runId)
      ? await this.deps.db.run.findUnique({ where: { id: runId }, select: { workflowId: true, versionId: true, versionNumber: true, request: true } })
      : null;
    if (!original) return failure(userError("NOT_FOUND", `run "${runId}" does not exist`, { path: ["id"] }));
    const request = original.request as unknown as StoredRunRequest;
    const version = original.versionId !== null && original.versionNumber !== null ? { id: original.versionId, number: original.versionNumber } : null;
    return this.#accept({
      workflowId: original.workflowId,
      request,
      inputNodeIds: Object.keys(request.inputs ?? {}),
      target: { kind: "pinned", version },
      apiKeyId: auth.keyId,
      rerunOfId: runId,
    });
  }

  async #accept(start: StartRequest): Promise<Outcome<RunObject>> {
    const outcome = await startRunTransaction(this.#start, start);
    if (!outcome.ok) return outcome;
    const run = outcome.value;
    const scope = { workflowId: run.workflowId, version: run.versionNumber };
    await this.#publishStatus({ runId: run.id, ...scope, status: "QUEUED", at: run.createdAt.toISOString() });
    this.queue.enqueue(run.id);
    this.deps.logger.info({ runId: run.id, ...scope }, "run queued");
    return success(toRunObject(run));
  }

  /** Every start spends one of the caller's runs per minute, refused or not; the refusal when none is left. */
  async #spendRunBudget(caller: string): Promise<UserError | null> {
    return (await this.spendRunBudget(caller))?.error ?? null;
  }

  /**
   * Spends one of `caller`'s runs per minute (a webhook's caller is its trigger): null when allowed, else
   * the RATE_LIMITED refusal and the seconds to wait (a webhook answers them as Retry-After).
   */
  async spendRunBudget(caller: string): Promise<{ error: UserError; retryAfterSeconds: number } | null> {
    const budget = this.#runBudget ? await this.#runBudget.take(caller) : ({ allowed: true } as const);
    if (budget.allowed) return null;
    const seconds = retryAfterSeconds(budget.retryAfterMs);
    return { error: userError("RATE_LIMITED", `at most ${budget.limit} runs may be started per minute; retry in ${seconds} s`), retryAfterSeconds: seconds };
  }

  /** Cancels an active run; a finished run is left as it is (CONFLICT), so repeating is harmless. */
  async cancel(runId: string): Promise<Outcome<RunObject>> {
    const run = await this.deps.db.run.findUnique({ where: { id: runId } });
    if (!run) return { ok: false, errors: [userError("NOT_FOUND", `run "${runId}" does not exist`, { path: ["id"] })] };
    if (!isActiveRunStatus(run.status)) return { ok: false, errors: [finishedError(runId, run.status)] };
    const reason = CANCEL_REASON;
    // A WAITING run has no executor to stop: it is ended below (and if a task's completion has just
    // handed it to a worker, that worker's writes are refused once it has ended).
    if (run.status !== "WAITING") await this.queue.cancel(runId, reason);
    // Whatever the queue found (a waiting job removed, an executing one aborted, or nothing: orphaned,
    // or its worker did not answer in time), a run still active now is ended here; its executor's later
    // writes are refused (fencing), so nothing follows the terminal event.
    await endRun(this.#ending, runId, { kind: "cancelled", reason });
    const after = await this.deps.db.run.findUniqueOrThrow({ where: { id: runId } });
    return { ok: true, value: toRunObject(after) };
  }

  /**
   * Deletes a finished run with everything it stored (run-deletion.ts) and tells runStatusChanged
   * (`deleted: true`), so dashboards count it out. An active run is refused with RUN_ACTIVE: cancel it first.
   */
  async delete(runId: string): Promise<Outcome<string>> {
    const notFound = userError("NOT_FOUND", `run "${runId}" does not exist`, { path: ["id"] });
    if (!isUuid(runId)) return failure(notFound);
    const outcome = await deleteFinishedRun(this.deps.db, runId);
    if ("refused" in outcome) {
      if (outcome.refused === "NOT_FOUND") return failure(notFound);
      return failure(userError("RUN_ACTIVE", `run "${runId}" is ${outcome.status}; cancel it or wait for it to end before deleting it`, { path: ["id"] }));
    }
    await this.#publishDeleted(outcome.deleted);
    this.deps.logger.info({ runId, workflowId: outcome.deleted.workflowId }, "run deleted");
    return success(runId);
  }

  /**
   * WEFT_RUN_RETENTION_DAYS: deletes finished runs created before `before`, a batch of runs at a time and
   * each run a batch of rows at a time (run-deletion.ts), until none is left or `stopped()` says so.
   * Returns how many it deleted.
   */
  async deleteFinishedBefore(before: Date, stopped: () => boolean = () => false): Promise<number> {
    let count = 0;
    for (let ids = await finishedRunsBefore(this.deps.db, before); ids.length > 0 && !stopped(); ids = await finishedRunsBefore(this.deps.db, before)) {
      for (const id of ids) {
        if (stopped()) break;
        const outcome = await deleteFinishedRun(this.deps.db, id);
        if (!("deleted" in outcome)) continue;
        count += 1;
        await this.#publishDeleted(outcome.deleted);
      }
    }
    return count;
  }

  async #publishDeleted(run: DeletedRun): Promise<void> {
    await this.#publishStatus({ runId: run.runId, workflowId: run.workflowId, version: run.version, status: run.status, at: new Date().toISOString(), deleted: true });
  }

  /** The most recently started run of a workflow, whatever its status. */
  async lastRun(workflowId: string): Promise<RunObject | null> {
    const row = await this.deps.db.run.findFirst({ where: { workflowId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    return row && toRunObject(row);
  }

  async get(runId: string): Promise<RunObject | null> {
    const row = await this.deps.db.run.findUnique({ where: { id: runId } });
    return row ? toRunObject(row) : null;
  }

  /** Newest first; bad page arguments throw BAD_USER_INPUT (see readPage). */
  async list(args: RunsArgs): Promise<Page<RunObject>> {
    const page = readPage(args);
    const filter: Prisma.RunWhereInput = {
      ...(args.workflowId ? { workflowId: args.workflowId } : {}),
      ...(args.threadId ? { threadId: args.threadId } : {}),
      ...(args.triggerId ? { triggerId: args.triggerId } : {}),
      // Experiments' runs are many and belong to their experiment: listed only when asked for.
      experimentId: args.experimentId ?? null,
      ...(args.version !== null && args.version !== undefined ? { versionNumber: args.version } : {}),
      ...(args.draft === true ? { versionId: null } : args.draft === false ? { versionId: { not: null } } : {}),
      ...(args.status && args.status.length > 0 ? { status: { in: args.status } } : {}),
      ...(args.createdAfter || args.createdBefore
        ? { createdAt: { ...(args.createdAfter ? { gte: args.createdAfter } : {}), ...(args.createdBefore ? { lt: args.createdBefore } : {}) } }
        : {}),
    };
    const where = page.after ? { AND: [filter, afterCursorWhere("createdAt", page.after)] } : filter;
    const [rows, totalCount] = await Promise.all([
      this.deps.db.run.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: page.size + 1 }),
      this.deps.db.run.count({ where: filter }),
    ]);
    return buildPage(rows, page.size, totalCount, (row) => row.createdAt, toRunObject);
  }

  /** One page of a run's node runs in NODE_RUN_ORDER (see node-run-page.ts); bad page arguments throw BAD_USER_INPUT. */
  async nodeRuns(runId: string, filter: NodeRunFilter = {}): Promise<NodeRunObject[]> {
    const { where, take } = nodeRunPage(runId, filter);
    const rows = await this.deps.db.nodeRun.findMany({ where, orderBy: NODE_RUN_ORDER, take });
    return rows.map(toNodeRunObject);
  }

  /** Stored events after `afterSeq` (≥ 0), at most `limit` (1..MAX_EVENTS_PER_READ); others are refused, not clamped. */
  async events(runId: string, afterSeq: number, limit: number): Promise<RunEventMessage[]> {
    checkAfterSeq(afterSeq);
    const take = readBound("limit", limit, { max: MAX_EVENTS_PER_READ, fallback: MAX_EVENTS_PER_READ });
    const rows = await this.deps.db.runEvent.findMany({ where: { runId, seq: { gt: afterSeq } }, orderBy: { seq: "asc" }, take });
    return rows.map(toEventMessage);
  }

  /** Stored events after `afterSeq`, then live ones; ends after the terminal event. */
  async streamEvents(runId: string, afterSeq: number): Promise<AsyncIterableIterator<RunEventMessage>> {
    checkAfterSeq(afterSeq);
    const metrics = this.#metrics;
    const stream = await replayThenLive(this.#replays, this.bus, runId, afterSeq, metrics ? (message) => metrics.observeDelivery(message) : undefined);
    if (!stream) throw new AppError("NOT_FOUND", `run "${runId}" does not exist`);
    return stream;
  }

  async streamStatus(workflowId: string | null): Promise<AsyncIterableIterator<RunStatusMessage>> {
    if (workflowId !== null && (await this.deps.db.workflow.count({ where: { id: workflowId } })) === 0) {
      throw new AppError("NOT_FOUND", `workflow "${workflowId}" does not exist`, { extensions: { id: workflowId } });
    }
    let unsubscribe: (() => void) | null = null;
    const out = new AsyncQueue<RunStatusMessage>(() => unsubscribe?.());
    unsubscribe = await this.bus.subscribe("runStatus", ALL_RUNS, (message) => {
      if (!workflowId || message.workflowId === workflowId) out.push(message);
    });
    return out;
  }

  /**
   * At start of a single process (no Redis): runs left QUEUED or RUNNING by a previous process cannot be
   * resumed (their executor state is gone), so they are ended FAILED with RUN_INTERRUPTED. With Redis,
   * other processes may be executing them: the queue's stalled-job check and the reconciler take over.
   * WAITING runs are nobody's to execute: they stay, and continue when their tasks are closed; a run
   * that a closed task had just sent back to the queue (its last event is still RUN_WAITING: its
   * continuation never began) is queued again.
   */
  async recoverInterrupted(): Promise<number> {
    const stuck = await this.deps.db.$queryRaw<{ id: string; lastType: string | null }[]>`
      SELECT r.id, e.type AS "lastType" FROM "Run" r LEFT JOIN "RunEvent" e ON e."runId" = r.id AND e.seq = r."lastSeq"
       WHERE r.status::text IN (${Prisma.join(EXECUTING_RUN_STATUSES)})`;
    let recovered = 0;
    for (const { id, lastType } of stuck) {
      if (lastType === "RUN_WAITING") {
        this.queue.enqueue(id);
        continue;
      }
      const ended = await endRun(this.#ending, id, {
        kind: "failed",
        code: "RUN_INTERRUPTED",
        message: "the server stopped while this run was active; start it again",
      });
      if (ended) recovered += 1;
    }
    if (recovered > 0) this.deps.logger.warn({ count: recovered }, "runs interrupted by a previous shutdown were marked FAILED");
    return recovered;
  }

  /**
   * A task of the run was closed (SPEC-V3 §2): a WAITING run goes back to RUNNING and to the queue, where
   * any worker continues it from its events. A run not waiting is left as it is: its execution takes
   * the answer, or finds it when it would park. True when this call continued the run.
   */
  async continueWaiting(runId: string): Promise<boolean> {
    const run = await continueWaitingRun(this.deps.db, runId);
    if (!run) return false;
    await this.#publishStatus({ runId, workflowId: run.workflowId, version: run.versionNumber, status: "RUNNING", at: new Date().toISOString() });
    this.queue.enqueueAgain(runId);
    return true;
  }

  async close(): Promise<void> {
    await this.queue.close();
    await this.#liveAnswers.close();
  }

  async #publishStatus(message: RunStatusMessage): Promise<void> {
    await this.bus.publish("runStatus", ALL_RUNS, message);
  }
}

/** What sees every event of the runs executed in this process: metrics and traces, when there are any. */
function observerOf(metrics: WeftMetrics | null, tracer: RunTracer | null): ((event: RunEvent) => void) | undefined {
  if (!metrics && !tracer) return undefined;
  return (event) => {
    metrics?.observeEvent(event);
    tracer?.observeEvent(event);
  };
}

function checkAfterSeq(afterSeq: number): void {
  if (!Number.isInteger(afterSeq) || afterSeq < 0) throw badPageArgument("afterSeq", "afterSeq must be a whole number ≥ 0");
}

function finishedError(runId: string, status: string): UserError {
  return userError("CONFLICT", `run "${runId}" has already finished (${status}); nothing to cancel`, { path: ["id"] });
}
