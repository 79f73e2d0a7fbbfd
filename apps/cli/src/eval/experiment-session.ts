import { randomBytes } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { basename, extname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { ScorerSpec } from "@weft/engine";
import { UsageError } from "../usage.js";
import { ApiError } from "./api-error.js";
import { withRetry, type RetryPolicy } from "./api-retry.js";
import * as ops from "./experiment-operations.js";
import { readFailingRows } from "./failing-rows.reader.js";
import type { GraphqlHttpClient } from "./graphql-http.client.js";

/** How often the command asks how far the experiment is. */
const POLL_INTERVAL_MS = 1_000;
/** A file the command uploads (the API's own limits apply after). */
const MAX_UPLOAD_BYTES = 32 * 1024 * 1024;
/** Deleting a workflow whose cancelled experiment's runs are still ending (on another process): tries and first wait. */
const DELETE_RETRY: RetryPolicy = { codes: ["LOCKED_WHILE_RUNNING"], attempts: 4, firstDelayMs: 500 };

export interface EvalTarget {
  /** A workflow's id, or a weft.workflow file imported as a new workflow whose draft is run. */
  workflow: string;
  version?: number;
  draft: boolean;
  /** A dataset's id, or a JSONL / CSV file imported into a new dataset. */
  dataset: string;
  scorers: ScorerSpec[];
  concurrency?: number;
  /** Keep the workflow and dataset made from files (else they are deleted, with the experiment). */
  keep: boolean;
}

export interface Progress {
  rows: number;
  completed: number;
  failed: number;
}

export interface EvalOutcome {
  experiment: ops.ExperimentView;
  /** Rows that did not complete or failed a scorer, in dataset order (at most MAX_FAILING_ROWS). */
  failingRows: ops.ResultRow[];
  failingRowCount: number;
  /** What the command created on the server from files, and whether it is still there. */
  uploaded: { workflowId?: string; datasetId?: string; kept: boolean };
  interrupted: boolean;
}

export interface EvalHooks {
  onProgress: (progress: Progress) => void;
  /** A clean-up that failed: said, never in place of the outcome or of the error that ended the evaluation. */
  warn: (message: string) => void;
  /** Ctrl-C: before the experiment starts, stops the evaluation (EvalInterrupted); after, cancels it on the server. */
  signal: AbortSignal;
}

/** Ctrl-C before the experiment started: nothing ran; what was uploaded is deleted. */
export class EvalInterrupted extends Error {
  readonly code = "INTERRUPTED";
}

/**
 * One evaluation over the API: uploads what was given as files, starts the experiment, waits for it
 * (reporting progress; the signal cancels it on the server), reads its summary and failing rows, then
 * deletes what it uploaded unless asked to keep it.
 */
export async function runEvaluation(client: GraphqlHttpClient, target: EvalTarget, hooks: EvalHooks): Promise<EvalOutcome> {
  const uploaded: EvalOutcome["uploaded"] = { kept: target.keep };
  // Set while the experiment may still run on the server: the clean-up cancels it before deleting.
  let running: string | null = null;
  try {
    const fromFile = await isFile(target.workflow);
    if (fromFile && target.version !== undefined) throw new UsageError("--version names a published version of a workflow on the server; a workflow file is run as a draft");
    if (!fromFile && !target.draft && target.version === undefined) throw new UsageError("give --version N or --draft for a workflow on the server");
    stopIfInterrupted(hooks.signal);
    const workflow = fromFile ? (uploaded.workflowId = await importWorkflow(client, target.workflow)) : target.workflow;
    stopIfInterrupted(hooks.signal);
    const dataset = (await isFile(target.dataset)) ? (uploaded.datasetId = await importDataset(client, target.dataset)) : target.dataset;
    stopIfInterrupted(hooks.signal);
    const input = {
      workflowId: workflow,
      datasetId: dataset,
      scorers: target.scorers,
      ...(fromFile || target.draft ? { draft: true } : { version: target.version }),
      ...(target.concurrency === undefined ? {} : { concurrency: target.concurrency }),
    };
    const started = await client.mutate<{ experiment: { id: string } | null; errors: [] }>(ops.START_EXPERIMENT, { input }, "startExperiment");
    const id = (running = started.experiment!.id);
    const interrupted = await waitForEnd(client, id, hooks);
    running = null;
    const { experiment } = await withRetry(() => client.request<{ experiment: ops.ExperimentView }>(ops.EXPERIMENT_SUMMARY, { id }));
    const failing = await readFailingRows(client, id);
    return { experiment, failingRows: failing.rows, failingRowCount: failing.count, uploaded, interrupted };
  } finally {
    await cleanUp(client, running, target.keep ? {} : uploaded, hooks.warn);
  }
}

function stopIfInterrupted(signal: AbortSignal): void {
  if (signal.aborted) throw new EvalInterrupted("interrupted before the experiment started");
}

/** Polls until the experiment ends; on the signal, cancels it once and waits for its end. True when cancelled here. */
async function waitForEnd(client: GraphqlHttpClient, id: string, { onProgress, signal }: EvalHooks): Promise<boolean> {
  let cancelled = false;
  let last = "";
  for (;;) {
    const { experiment } = await withRetry(() => client.request<{ experiment: { status: ops.ExperimentStatus; summary: Progress } | null }>(ops.EXPERIMENT_PROGRESS, { id }));
    if (!experiment) throw new ApiError("NOT_FOUND", `experiment ${id} is gone (its workflow or dataset was deleted)`);
    const key = `${experiment.summary.completed}/${experiment.summary.failed}`;
    if (key !== last) onProgress(experiment.summary);
    last = key;
    if (experiment.status !== "RUNNING") return cancelled;
    if (signal.aborted && !cancelled) {
      cancelled = true;
      await cancelExperiment(client, id);
    }
    await sleep(POLL_INTERVAL_MS, undefined, cancelled ? {} : { signal }).catch(() => undefined);
  }
}

async function cancelExperiment(client: GraphqlHttpClient, id: string): Promise<void> {
  await client.mutate(ops.CANCEL_EXPERIMENT, { id }, "cancelExperiment").catch((error: unknown) => {
    // It ended between the two calls: nothing to cancel.
    if (!(error instanceof ApiError && error.code === "CONFLICT")) throw error;
  });
}

/**
 * Cancels the experiment if it may still run (the API refuses to delete a workflow while its runs are
 * active), then deletes the uploads: the workflow first, since deleting it deletes its experiments, which
 * frees the dataset. Each step that fails is a warning and the next is still tried.
 */
async function cleanUp(client: GraphqlHttpClient, running: string | null, uploads: { workflowId?: string; datasetId?: string }, warn: (message: string) => void): Promise<void> {
  const attempt = async (what: string, step: () => Promise<unknown>): Promise<void> => {
    await step().catch((error: unknown) => warn(`could not ${what}: ${error instanceof ApiError ? `${error.code}: ` : ""}${(error as Error).message}`));
  };
  if (running) await attempt(`cancel experiment ${running}`, () => cancelExperiment(client, running));
  const { workflowId, datasetId } = uploads;
  // A cancelled experiment's runs may take a moment to end where they run (another process).
  if (workflowId) await attempt(`delete the uploaded workflow ${workflowId}`, () => withRetry(() => client.mutate(ops.DELETE_WORKFLOW, { id: workflowId }, "deleteWorkflow"), DELETE_RETRY));
  if (datasetId) await attempt(`delete the uploaded dataset ${datasetId}`, () => client.mutate(ops.DELETE_DATASET, { id: datasetId }, "deleteDataset"));
}

async function importWorkflow(client: GraphqlHttpClient, path: string): Promise<string> {
  const text = await readUpload(path);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new ApiError("DOCUMENT_INVALID", `${path} is not JSON: ${(error as Error).message}`);
  }
  const payload = await client.mutate<{ workflow: { id: string } | null; errors: [] }>(ops.IMPORT_WORKFLOW, { document }, "importWorkflow");
  return payload.workflow!.id;
}

async function importDataset(client: GraphqlHttpClient, path: string): Promise<string> {
  const text = await readUpload(path);
  const format = extname(path).toLowerCase() === ".csv" ? "CSV" : "JSONL";
  // A unique name: dataset names are unique on a server, and runs of the same file in CI may overlap.
  const name = `weft eval ${basename(path)} ${new Date().toISOString()} ${randomBytes(3).toString("hex")}`;
  const created = await client.mutate<{ dataset: { id: string } | null; errors: [] }>(ops.CREATE_DATASET, { input: { name, description: `uploaded by weft eval from ${basename(path)}` } }, "createDataset");
  const id = created.dataset!.id;
  try {
    await client.mutate(ops.IMPORT_DATASET_ROWS, { id, format, text }, "importDatasetRows");
  } catch (error) {
    await client.mutate(ops.DELETE_DATASET, { id }, "deleteDataset").catch(() => undefined);
    throw error;
  }
  return id;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() ?? false;
}

async function readUpload(path: string): Promise<string> {
  const size = (await stat(path)).size;
  if (size > MAX_UPLOAD_BYTES) throw new ApiError("LIMIT_EXCEEDED", `${path} is ${size} bytes; weft eval uploads at most ${MAX_UPLOAD_BYTES}`);
  return readFile(path, "utf8");
}
