import { randomBytes } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { basename, extname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { UsageError } from "../usage.js";
import { ApiError } from "./api-error.js";
import type { ScorerSpec } from "./eval-arguments.js";
import * as ops from "./experiment-operations.js";
import type { GraphqlHttpClient } from "./graphql-http.client.js";

/** How often the command asks how far the experiment is. */
const POLL_INTERVAL_MS = 1_000;
/** Rows that failed a scorer, kept for the report (the counts cover them all). */
export const MAX_FAILING_ROWS = 1_000;
/** A workflow or dataset file the command uploads (the API's own limits apply after). */
const MAX_UPLOAD_BYTES = 32 * 1024 * 1024;

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

/**
 * One evaluation over the API: uploads what was given as files, starts the experiment, waits for it
 * (reporting progress; `signal` cancels it on the server), reads its summary and failing rows, then
 * deletes what it uploaded unless asked to keep it.
 */
export async function runEvaluation(client: GraphqlHttpClient, target: EvalTarget, onProgress: (progress: Progress) => void, signal: AbortSignal): Promise<EvalOutcome> {
  const uploaded: EvalOutcome["uploaded"] = { kept: target.keep };
  try {
    const fromFile = await isFile(target.workflow);
    if (fromFile && target.version !== undefined) throw new UsageError("--version names a published version of a workflow on the server; a workflow file is run as a draft");
    if (!fromFile && !target.draft && target.version === undefined) throw new UsageError("give --version N or --draft for a workflow on the server");
    const workflow = fromFile ? (uploaded.workflowId = await importWorkflow(client, target.workflow)) : target.workflow;
    const dataset = (await isFile(target.dataset)) ? (uploaded.datasetId = await importDataset(client, target.dataset)) : target.dataset;
    const input = {
      workflowId: workflow,
      datasetId: dataset,
      scorers: target.scorers,
      ...(fromFile || target.draft ? { draft: true } : { version: target.version }),
      ...(target.concurrency === undefined ? {} : { concurrency: target.concurrency }),
    };
    const started = await client.mutate<{ experiment: { id: string } | null; errors: [] }>(ops.START_EXPERIMENT, { input }, "startExperiment");
    const id = started.experiment!.id;
    const interrupted = await waitForEnd(client, id, onProgress, signal);
    const { experiment } = await client.request<{ experiment: ops.ExperimentView }>(ops.EXPERIMENT_SUMMARY, { id });
    const failing = await failingRows(client, id);
    return { experiment, failingRows: failing.rows, failingRowCount: failing.count, uploaded, interrupted };
  } finally {
    if (!target.keep) await removeUploads(client, uploaded);
  }
}

/** Polls until the experiment ends; on `signal`, cancels it once and waits for its end. True when cancelled here. */
async function waitForEnd(client: GraphqlHttpClient, id: string, onProgress: (progress: Progress) => void, signal: AbortSignal): Promise<boolean> {
  let cancelled = false;
  let last = "";
  for (;;) {
    const { experiment } = await client.request<{ experiment: { status: ops.ExperimentStatus; summary: Progress } | null }>(ops.EXPERIMENT_PROGRESS, { id });
    if (!experiment) throw new ApiError("NOT_FOUND", `experiment ${id} is gone (its workflow or dataset was deleted)`);
    const key = `${experiment.summary.completed}/${experiment.summary.failed}`;
    if (key !== last) onProgress(experiment.summary);
    last = key;
    if (experiment.status !== "RUNNING") return cancelled;
    if (signal.aborted && !cancelled) {
      cancelled = true;
      await client.mutate(ops.CANCEL_EXPERIMENT, { id }, "cancelExperiment").catch((error: unknown) => {
        // It ended between the two calls: nothing to cancel.
        if (!(error instanceof ApiError && error.code === "CONFLICT")) throw error;
      });
    }
    await sleep(POLL_INTERVAL_MS, undefined, cancelled ? {} : { signal }).catch(() => undefined);
  }
}

async function failingRows(client: GraphqlHttpClient, id: string): Promise<{ rows: ops.ResultRow[]; count: number }> {
  const rows: ops.ResultRow[] = [];
  let count = 0;
  let after: string | null = null;
  for (;;) {
    const page: ops.ResultsPage = await client.request<ops.ResultsPage>(ops.EXPERIMENT_RESULTS, { id, after });
    const results = page.experiment?.results;
    if (!results) return { rows, count };
    for (const { node } of results.edges) {
      if (node.completed && node.scores.every((score) => score.pass)) continue;
      count += 1;
      if (rows.length < MAX_FAILING_ROWS) rows.push(node);
    }
    if (!results.pageInfo.hasNextPage) return { rows, count };
    after = results.pageInfo.endCursor;
  }
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

/** The imported workflow first: deleting it deletes its experiments, which frees the dataset. */
async function removeUploads(client: GraphqlHttpClient, uploaded: EvalOutcome["uploaded"]): Promise<void> {
  if (uploaded.workflowId) await client.mutate(ops.DELETE_WORKFLOW, { id: uploaded.workflowId }, "deleteWorkflow");
  if (uploaded.datasetId) await client.mutate(ops.DELETE_DATASET, { id: uploaded.datasetId }, "deleteDataset");
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() ?? false;
}

async function readUpload(path: string): Promise<string> {
  const size = (await stat(path)).size;
  if (size > MAX_UPLOAD_BYTES) throw new ApiError("LIMIT_EXCEEDED", `${path} is ${size} bytes; weft eval uploads at most ${MAX_UPLOAD_BYTES}`);
  return readFile(path, "utf8");
}
