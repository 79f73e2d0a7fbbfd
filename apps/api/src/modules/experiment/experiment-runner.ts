import { ConcurrencyLimiter, isAbortError, scoreCase, type DatasetRowInput, type JsonValue, type ScorerSpec, type ScoringContext } from "@weft/engine";
import type { PrismaClient } from "../../generated/prisma/client.js";
import type { Logger } from "../../logger.js";
import type { Outcome } from "../../errors/outcome.js";
import { isActiveRunStatus } from "../common/run-status.js";
import type { ExperimentProgressChannel } from "./experiment-progress.js";

/** What the runner needs of the run module: the same path as every run, tagged with the experiment. */
export interface ExperimentRuns {
  startForExperiment(experiment: { id: string; workflowId: string; version: number | null }, inputs: readonly DatasetRowInput[]): Promise<Outcome<{ id: string }>>;
  awaitEnd(runId: string, timeoutMs: number): Promise<FinishedRun | null>;
  cancel(runId: string): Promise<unknown>;
}

interface FinishedRun {
  status: string;
  result: string | null;
  error: { code: string; message: string } | null;
  totalTokens: number;
  costUsd: number | null;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface RunnerDeps {
  db: PrismaClient;
  runs: ExperimentRuns;
  progress: ExperimentProgressChannel;
  /** The process's share of run slots for experiments (experiment.service.ts: the policy). */
  processSlots: ConcurrencyLimiter;
  scoring: Omit<ScoringContext, "signal">;
  logger: Logger;
}

export interface RunningExperiment {
  id: string;
  workflowId: string;
  version: number | null;
  datasetId: string;
  rows: number;
  concurrency: number;
  scorers: readonly ScorerSpec[];
}

interface Counts {
  completed: number;
  failed: number;
}

/** Rows read from the dataset at a time. */
const ROW_PAGE = 200;
/** How long one wait for a run's end lasts before it is checked again (a run's own timeouts end it). */
const RUN_WAIT_MS = 60_000;

/**
 * Runs an experiment's rows in position order, at most `concurrency` at once and, with every other
 * experiment of this process, at most the process's experiment slots. Each row is an ordinary run; when
 * it ends its output is scored and the result stored, and progress is published. An abort (cancelExperiment)
 * stops starting rows and cancels the runs in flight; their rows are stored as not completed.
 * Returns what happened to the rows.
 */
export async function runExperiment(deps: RunnerDeps, experiment: RunningExperiment, signal: AbortSignal): Promise<Counts> {
  const own = new ConcurrencyLimiter(experiment.concurrency);
  const counts: Counts = { completed: 0, failed: 0 };
  const inFlight = new Set<Promise<void>>();
  let after = 0;
  try {
    while (!signal.aborted && after < experiment.rows) {
      const rows = await deps.db.datasetRow.findMany({
        where: { datasetId: experiment.datasetId, position: { gt: after, lte: experiment.rows } },
        orderBy: { position: "asc" },
        take: ROW_PAGE,
      });
      if (rows.length === 0) break;
      for (const row of rows) {
        await own.acquire(signal);
        try {
          await deps.processSlots.acquire(signal);
        } catch (error) {
          own.release();
          throw error;
        }
        const task = runRow(deps, experiment, { id: row.id, position: row.position, inputs: row.inputs as unknown as DatasetRowInput[], expected: row.expected as JsonValue }, signal)
          .then((completed) => {
            if (completed) counts.completed += 1;
            else counts.failed += 1;
            deps.progress.publish({ experimentId: experiment.id, status: "RUNNING", rows: experiment.rows, ...counts });
          })
          .catch((error: unknown) => {
            if (!isAbortError(error) && !signal.aborted) deps.logger.error({ err: error, experimentId: experiment.id, rowId: row.id }, "an experiment row could not be stored");
          })
          .finally(() => {
            deps.processSlots.release();
            own.release();
            inFlight.delete(task);
          });
        inFlight.add(task);
      }
      after = rows.at(-1)!.position;
    }
  } catch (error) {
    if (!isAbortError(error) && !signal.aborted) throw error;
  } finally {
    await Promise.allSettled([...inFlight]);
  }
  return counts;
}

interface Row {
  id: string;
  position: number;
  inputs: DatasetRowInput[];
  expected: JsonValue;
}

/** One row: its run, its scores, its stored result. Returns whether the run completed. */
async function runRow(deps: RunnerDeps, experiment: RunningExperiment, row: Row, signal: AbortSignal): Promise<boolean> {
  const started = await deps.runs.startForExperiment(experiment, row.inputs);
  let runId: string | null = null;
  let run: FinishedRun | null = null;
  let error: { code: string; message: string } | null = null;
  if (started.ok) {
    runId = started.value.id;
    run = await waitForEnd(deps.runs, runId, signal);
    if (run?.status !== "COMPLETED") error = run?.error ?? { code: "RUN_NOT_COMPLETED", message: `the run ended ${run?.status ?? "unknown"}` };
  } else {
    const first = started.errors[0];
    error = { code: first?.code ?? "VALIDATION_FAILED", message: started.errors.map((each) => each.message).join("; ") };
  }
  const completed = run?.status === "COMPLETED";
  const output = completed ? (run?.result ?? "") : null;
  const scored = await scoreCase(experiment.scorers, { output, expected: row.expected, inputs: row.inputs }, { ...deps.scoring, signal }, error);
  await deps.db.experimentResult.create({
    data: {
      experimentId: experiment.id,
      rowId: row.id,
      position: row.position,
      runId,
      output,
      completed,
      latencyMs: run?.startedAt && run.finishedAt ? run.finishedAt.getTime() - run.startedAt.getTime() : null,
      tokens: (run?.totalTokens ?? 0) + scored.usage.totalTokens,
      costUsd: run?.costUsd ?? null,
      scores: scored.scores as unknown as object[],
      ...(error ? { error } : {}),
    },
  });
  return completed;
}

/**
 * The run once it ended; on an abort it is cancelled first (its row is then stored as not completed). A
 * run that stops to wait for a person (a human step) is cancelled too: an experiment has no one to answer,
 * and a waiting row would hold its slot, and a publish gate, for as long as the task stays open.
 */
async function waitForEnd(runs: ExperimentRuns, runId: string, signal: AbortSignal): Promise<FinishedRun | null> {
  const onAbort = () => void runs.cancel(runId).catch(() => undefined);
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    if (signal.aborted) onAbort();
    for (;;) {
      const run = await runs.awaitEnd(runId, RUN_WAIT_MS);
      if (run?.status === "WAITING") {
        await runs.cancel(runId);
        // Stored as the run now is (cancelled), with the reason: it reached RUN_WAITING.
        return { ...run, status: "CANCELLED", error: { code: "RUN_WAITING", message: "the run stopped at a human step; experiments run without people, so it was cancelled" } };
      }
      if (!run || !isActiveRunStatus(run.status)) return run;
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
