import { canonicalJson, ConcurrencyLimiter, readScorers, summarizeResults, type Embedder, type JsonValue, type ExperimentSummary, type ScorerSpec } from "@weft/engine";
import type { Experiment as ExperimentRow, PrismaClient } from "../../generated/prisma/client.js";
import type { EventBus, ExperimentProgressMessage } from "../../pubsub.js";
import type { ServiceDeps } from "../../service-deps.js";
import { failure, success, type Outcome } from "../../errors/outcome.js";
import { notFoundError, userError, type UserError } from "../../errors/user-error.type.js";
import { afterCursorWhere, buildPage, encodeOffsetCursor, readBound, readOffsetCursor, readPage, type Page } from "../common/pagination.js";
import { isUuid } from "../common/uuid.js";
import type { StartExperimentInput } from "./experiment.input.js";
import { storedScores, toExperimentObject, toExperimentResultObject } from "./experiment.mapper.js";
import { ExperimentProgressChannel } from "./experiment-progress.js";
import { runExperiment, type ExperimentRuns, type RunnerDeps } from "./experiment-runner.js";
import { compareExperiments, RESULT_FIGURES, type Summarize } from "./experiment-comparison.js";
import type { ExperimentComparisonObject, ExperimentObject, ExperimentResultObject } from "./experiment.type.js";

export const EXPERIMENT_LIMITS = {
  /** Rows of one experiment running at once. */
  maxConcurrency: 20,
  defaultConcurrency: 4,
  /** Results one `results(first:)` page may hold. */
  maxResultsPerPage: 500,
} as const;

const RESULT_CURSOR = "result";

/**
 * The share of a process's run slots (WEFT_PROCESS_CONCURRENCY) that experiments may hold together:
 * half, at least one. Experiment rows wait for one of these slots before their run is queued, so
 * however many experiments run, the other half of the slots is always left to users' runs.
 */
export function experimentSlots(processConcurrency: number): number {
  return Math.max(1, Math.floor(processConcurrency / 2));
}

export interface ExperimentServiceOptions {
  runs: ExperimentRuns;
  bus: EventBus;
  /** The configured embedder (WEFT_EMBEDDER): what `similarity` scorers compare with. */
  embedder: Embedder | null;
}

/** Experiments (SPEC-V3 §4): start, follow, cancel, read results and summaries. */
export class ExperimentService {
  readonly #db: PrismaClient;
  readonly #runner: RunnerDeps;
  readonly #llm: ServiceDeps["llm"];
  readonly progress: ExperimentProgressChannel;
  /** Experiments this process runs, by id: cancelExperiment aborts them here or, through the bus, elsewhere. */
  readonly #running = new Map<string, { abort: AbortController; done: Promise<void> }>();

  constructor(deps: ServiceDeps, options: ExperimentServiceOptions) {
    this.#db = deps.db;
    this.#llm = deps.llm;
    this.progress = new ExperimentProgressChannel(options.bus);
    this.#runner = {
      db: deps.db,
      runs: options.runs,
      progress: this.progress,
      processSlots: new ConcurrencyLimiter(experimentSlots(deps.env.WEFT_PROCESS_CONCURRENCY)),
      scoring: { llm: deps.llm, embedder: options.embedder, maxValueDepth: deps.env.WEFT_MAX_VALUE_DEPTH, parseRepair: deps.env.WEFT_PARSE_REPAIR },
      logger: deps.logger,
    };
  }

  /** `draftHash`: the draft's content hash when the publish gate runs it (so a later gate can reuse it). */
  async start(input: StartExperimentInput, draftHash: string | null = null): Promise<Outcome<ExperimentObject>> {
    const checked = await this.#check(input);
    if (!checked.ok) return checked;
    const { scorers, version, dataset, concurrency } = checked.value;
    const row = await this.#db.experiment.create({
      data: {
        workflowId: input.workflowId,
        versionId: version?.id ?? null,
        versionNumber: version?.number ?? null,
        draft: version === null,
        contentHash: version?.contentHash ?? draftHash,
        datasetId: dataset.id,
        datasetRevision: dataset.revision,
        scorers: input.scorers as object,
        concurrency,
        rows: dataset.rowCount,
      },
    });
    this.#launch(row, scorers);
    return success(toExperimentObject(row));
  }

  async #check(input: StartExperimentInput): Promise<Outcome<{ scorers: ScorerSpec[]; version: { id: string; number: number; contentHash: string } | null; dataset: { id: string; revision: number; rowCount: number }; concurrency: number }>> {
    const errors: UserError[] = [];
    const read = readScorers(input.scorers);
    if (!read.ok) errors.push(...read.issues.map((issue) => userError(issue.code, issue.message, { path: ["input", "scorers", ...issue.path] })));
    for (const [index, spec] of (read.ok ? read.scorers : []).entries()) {
      if (spec.type === "judge" && !this.#llm.get(spec.provider)) errors.push(userError("MODEL_UNAVAILABLE", `the judge's provider "${spec.provider}" is not configured`, { path: ["input", "scorers", index, "provider"] }));
    }
    const concurrency = input.concurrency ?? EXPERIMENT_LIMITS.defaultConcurrency;
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > EXPERIMENT_LIMITS.maxConcurrency) {
      errors.push(userError("VALIDATION_FAILED", `concurrency must be between 1 and ${EXPERIMENT_LIMITS.maxConcurrency}`, { path: ["input", "concurrency"] }));
    }
    const hasVersion = input.version !== null && input.version !== undefined;
    if (hasVersion === (input.draft === true)) errors.push(userError("VALIDATION_FAILED", "give a published version or draft: true (one of the two)", { path: ["input", "version"] }));
    const workflow = isUuid(input.workflowId) ? await this.#db.workflow.findUnique({ where: { id: input.workflowId }, select: { id: true } }) : null;
    if (!workflow) errors.push(notFoundError("workflow", input.workflowId, ["input", "workflowId"]));
    const dataset = isUuid(input.datasetId) ? await this.#db.dataset.findUnique({ where: { id: input.datasetId }, select: { id: true, revision: true, rowCount: true } }) : null;
    if (!dataset) errors.push(notFoundError("dataset", input.datasetId, ["input", "datasetId"]));
    else if (dataset.rowCount === 0) errors.push(userError("VALIDATION_FAILED", "the dataset has no rows", { path: ["input", "datasetId"] }));
    let version: { id: string; number: number; contentHash: string } | null = null;
    if (workflow && hasVersion) {
      version = await this.#db.workflowVersion.findUnique({ where: { workflowId_number: { workflowId: workflow.id, number: input.version! } }, select: { id: true, number: true, contentHash: true } });
      if (!version) errors.push(userError("NOT_FOUND", `the workflow has no published version ${input.version}`, { path: ["input", "version"] }));
    }
    if (errors.length > 0 || !read.ok || !dataset) return failure(...errors);
    return success({ scorers: read.scorers, version, dataset, concurrency });
  }

  /** Runs the experiment in this process; it ends COMPLETED, or CANCELLED when cancelExperiment stopped it. */
  #launch(row: ExperimentRow, scorers: ScorerSpec[]): void {
    const abort = new AbortController();
    const experiment = { id: row.id, workflowId: row.workflowId, version: row.versionNumber, datasetId: row.datasetId, rows: row.rows, concurrency: row.concurrency, scorers };
    const done = (async () => {
      let unlisten: () => void = () => undefined;
      try {
        // A cancel through another process arrives on the bus.
        unlisten = await this.progress.listen(row.id, (message) => {
          if (message.status === "CANCELLED") abort.abort(new Error("the experiment was cancelled"));
        });
        const counts = await runExperiment(this.#runner, experiment, abort.signal);
        // A row whose result could not be stored (logged by the runner) leaves the experiment incomplete:
        // it ends FAILED, so neither its summary nor a publish gate reads a part of the dataset as the whole.
        const missing = row.rows - counts.completed - counts.failed;
        const status = abort.signal.aborted ? "CANCELLED" : missing > 0 ? "FAILED" : "COMPLETED";
        await this.#finish(row.id, status, status === "FAILED" ? `${missing} of ${row.rows} rows have no stored result (see the server's log)` : null);
        this.progress.publish({ experimentId: row.id, status, rows: row.rows, ...counts });
      } catch (error) {
        this.#runner.logger.error({ err: error, experimentId: row.id }, "an experiment failed");
        // The database may be what failed: what cannot be recorded now is ended by the next start's recovery.
        await this.#finish(row.id, "FAILED", "the experiment stopped on an internal error (see the server's log)").catch(() => undefined);
        const counts = await this.#counts(row.id, row.rows).catch(() => ({ rows: row.rows, completed: 0, failed: 0 }));
        this.progress.publish({ experimentId: row.id, status: "FAILED", ...counts });
      } finally {
        unlisten();
        this.#running.delete(row.id);
      }
    })().catch((error: unknown) => this.#runner.logger.error({ err: error, experimentId: row.id }, "an experiment could not be ended"));
    this.#running.set(row.id, { abort, done });
  }

  /** The experiment once it has finished (it runs in this process: started here). */
  async awaitFinished(id: string): Promise<ExperimentObject | null> {
    await this.#running.get(id)?.done;
    return this.get(id);
  }

  /**
   * The newest COMPLETED experiment of a workflow on this content (a version's or the draft's hash), the
   * dataset at this revision and the same scorers: what the publish gate reuses instead of running again.
   */
  async findReusable(where: { workflowId: string; contentHash: string; datasetId: string; datasetRevision: number }, scorers: unknown): Promise<ExperimentObject | null> {
    const candidates = await this.#db.experiment.findMany({ where: { ...where, status: "COMPLETED" }, orderBy: { createdAt: "desc" }, take: 20 });
    const wanted = canonicalJson(scorers as JsonValue);
    const found = candidates.find((row) => canonicalJson(row.scorers as JsonValue) === wanted);
    return found ? toExperimentObject(found) : null;
  }

  async #finish(id: string, status: "COMPLETED" | "CANCELLED" | "FAILED", error: string | null): Promise<void> {
    // A cancel already stored CANCELLED: it stays.
    await this.#db.experiment.updateMany({ where: { id, status: "RUNNING" }, data: { status, error, finishedAt: new Date() } });
  }

  /** Stops an experiment: no row starts any more, its runs in flight are cancelled, and it ends CANCELLED. */
  async cancel(id: string): Promise<Outcome<ExperimentObject>> {
    if (!isUuid(id)) return failure(notFoundError("experiment", id));
    const stopped = await this.#db.experiment.updateMany({ where: { id, status: "RUNNING" }, data: { status: "CANCELLED", finishedAt: new Date() } });
    const row = await this.#db.experiment.findUnique({ where: { id } });
    if (!row) return failure(notFoundError("experiment", id));
    if (stopped.count === 0) return failure(userError("CONFLICT", `experiment "${id}" has already finished (${row.status})`, { path: ["id"] }));
    const local = this.#running.get(id);
    if (local) {
      local.abort.abort(new Error("the experiment was cancelled"));
      await local.done;
    } else {
      this.progress.publish({ experimentId: id, status: "CANCELLED", ...(await this.#counts(id, row.rows)) });
    }
    return success(toExperimentObject((await this.#db.experiment.findUnique({ where: { id } })) ?? row));
  }

  async get(id: string): Promise<ExperimentObject | null> {
    if (!isUuid(id)) return null;
    const row = await this.#db.experiment.findUnique({ where: { id } });
    return row && toExperimentObject(row);
  }

  /** A workflow's experiments, newest first. */
  async list(workflowId: string, args: { first?: number | null; after?: string | null }): Promise<Page<ExperimentObject>> {
    const page = readPage(args);
    if (!isUuid(workflowId)) return buildPage([], page.size, 0, (row: ExperimentRow) => row.createdAt, toExperimentObject);
    const filter = { workflowId };
    const where = page.after ? { AND: [filter, afterCursorWhere("createdAt", page.after)] } : filter;
    const [rows, totalCount] = await Promise.all([
      this.#db.experiment.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: page.size + 1 }),
      this.#db.experiment.count({ where: filter }),
    ]);
    return buildPage(rows, page.size, totalCount, (row) => row.createdAt, toExperimentObject);
  }

  /**
   * Results in the dataset's row order, each with its row's expected value; with `regressionsOnly`, only
   * the rows that regressed against the latest published version's experiment on the dataset.
   */
  async results(experiment: ExperimentObject, args: { first?: number | null; after?: string | null; regressionsOnly?: boolean | null }): Promise<Page<ExperimentResultObject>> {
    const size = readBound("first", args.first, { max: EXPERIMENT_LIMITS.maxResultsPerPage, fallback: 50 });
    const after = readOffsetCursor(RESULT_CURSOR, args.after);
    const only = args.regressionsOnly ? await this.#regressedAgainstPublished(experiment) : null;
    const where = { experimentId: experiment.id, ...(only ? { position: { gt: after, in: only } } : { position: { gt: after } }) };
    const rows = await this.#db.experimentResult.findMany({ where, orderBy: { position: "asc" }, take: size + 1 });
    const visible = rows.slice(0, size);
    const expected = new Map(
      (await this.#db.datasetRow.findMany({ where: { id: { in: visible.map((row) => row.rowId) } }, select: { id: true, expected: true } })).map((row) => [row.id, row.expected]),
    );
    const totalCount = only ? only.length : await this.#db.experimentResult.count({ where: { experimentId: experiment.id } });
    const edges = visible.map((row) => ({ cursor: encodeOffsetCursor(RESULT_CURSOR, row.position), node: toExperimentResultObject(row, expected.get(row.rowId) ?? null) }));
    return { edges, pageInfo: { hasNextPage: rows.length > size, endCursor: edges.at(-1)?.cursor ?? null }, totalCount };
  }

  /** Means, pass rates, latency percentiles and tokens over the results so far, in one pass. */
  async summary(experiment: ExperimentObject): Promise<ExperimentSummary> {
    const rows = await this.#db.experimentResult.findMany({ where: { experimentId: experiment.id }, select: RESULT_FIGURES });
    return summarize(experiment, rows.map((row) => ({ ...row, scores: storedScores(row.scores) })));
  }

  /** compareExperiments: a the baseline, b the candidate (experiment-comparison.ts). */
  compare(a: string, b: string): Promise<Outcome<ExperimentComparisonObject>> {
    return compareExperiments(this.#db, summarize, a, b);
  }

  /** The rows where a scorer that passed in `baseline` fails in `candidate`, in the dataset's order. */
  async regressedRows(baseline: string, candidate: string): Promise<Outcome<{ rowId: string; position: number }[]>> {
    const compared = await this.compare(baseline, candidate);
    if (!compared.ok) return compared;
    const regressed = compared.value.rows.filter((row) => row.regressed).map((row) => row.rowId);
    if (regressed.length === 0) return success([]);
    const rows = await this.#db.datasetRow.findMany({ where: { id: { in: regressed } }, select: { id: true, position: true }, orderBy: { position: "asc" } });
    return success(rows.map((row) => ({ rowId: row.id, position: row.position })));
  }

  /**
   * results(regressionsOnly): the rows that regressed against the latest published version as the publish
   * gate compares — that version's experiment on the same dataset revision with the same scorers; none
   * without one.
   */
  async #regressedAgainstPublished(experiment: ExperimentObject): Promise<number[]> {
    const latest = await this.#db.workflowVersion.findFirst({ where: { workflowId: experiment.workflowId }, orderBy: { number: "desc" }, select: { contentHash: true } });
    if (!latest) return [];
    const scope = { workflowId: experiment.workflowId, contentHash: latest.contentHash, datasetId: experiment.datasetId, datasetRevision: experiment.datasetRevision };
    const baseline = await this.findReusable(scope, experiment.scorers);
    if (!baseline || baseline.id === experiment.id) return [];
    const regressed = await this.regressedRows(baseline.id, experiment.id);
    return regressed.ok ? regressed.value.map((row) => row.position) : [];
  }

  /** The experimentProgress subscription: the stored state, then every step until it finishes. */
  streamProgress(id: string): Promise<AsyncIterableIterator<ExperimentProgressMessage> | null> {
    return this.progress.stream(id, async () => {
      const row = isUuid(id) ? await this.#db.experiment.findUnique({ where: { id }, select: { status: true, rows: true } }) : null;
      return row && { experimentId: id, status: row.status, ...(await this.#counts(id, row.rows)), at: new Date().toISOString() };
    });
  }

  async #counts(id: string, rows: number): Promise<{ rows: number; completed: number; failed: number }> {
    const groups = await this.#db.experimentResult.groupBy({ by: ["completed"], where: { experimentId: id }, _count: { _all: true } });
    const count = (completed: boolean) => groups.find((group) => group.completed === completed)?._count._all ?? 0;
    return { rows, completed: count(true), failed: count(false) };
  }

  /** A dataset an experiment is running on cannot be deleted (DatasetService.guardDeletion). */
  async datasetInUse(datasetId: string): Promise<UserError | null> {
    const running = await this.#db.experiment.count({ where: { datasetId, status: "RUNNING" } });
    return running > 0 ? userError("CONFLICT", `an experiment is running on dataset "${datasetId}"; cancel it or wait for it to end`, { path: ["id"] }) : null;
  }

  /**
   * At start of a single process (no Redis): experiments left RUNNING by a previous process have no
   * runner any more; they end FAILED and keep the results they stored.
   */
  async recoverInterrupted(): Promise<number> {
    const ended = await this.#db.experiment.updateMany({ where: { status: "RUNNING" }, data: { status: "FAILED", error: "the server stopped while this experiment ran; start it again", finishedAt: new Date() } });
    return ended.count;
  }

  /** Stops this process's experiments (shutdown): they end CANCELLED with the results they stored. */
  async close(): Promise<void> {
    const running = [...this.#running.values()];
    for (const { abort } of running) abort.abort(new Error("the server is stopping"));
    await Promise.allSettled(running.map(({ done }) => done));
  }
}

const summarize: Summarize = (experiment, results) => summarizeResults(experiment.rows, scorerIds(experiment.scorers), results);

/** The scorer ids of a stored list (checked at start). */
export function scorerIds(scorers: unknown): string[] {
  return Array.isArray(scorers) ? scorers.map((spec) => String((spec as { id?: unknown }).id ?? "")) : [];
}
