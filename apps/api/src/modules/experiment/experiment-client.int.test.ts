import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../../testing/app.js";
import { openTestDatabase, type TestDatabase } from "../../testing/database.js";

const run = promisify(execFile);
const CLIENT = fileURLToPath(new URL("../../testing/clients/experiment-client.py", import.meta.url));
const EXAMPLES = fileURLToPath(new URL("../../../../../examples", import.meta.url));
/** Debian's python3 with its python3-websockets package (scripts/ensure-test-services.sh installs both). */
const PYTHON = process.env["WEFT_TEST_PYTHON"] ?? "/usr/bin/python3";

type UserErrors = { code: string; message: string; path: string[] | null }[];
interface Summary {
  rows: number;
  completed: number;
  failed: number;
  scores: { scorer: string; mean: number; passRate: number }[];
  tokens: number;
  latencyP50Ms: number | null;
}
interface ResultNode {
  position: number;
  rowId: string;
  runId: string | null;
  completed: boolean;
  output: string | null;
  expected: unknown;
  scores: { scorer: string; score: number; pass: boolean; reason: string }[];
}
interface ClientReport {
  dataset: { refused: { added: number; errors: UserErrors }; added: number[]; dataset: { rowCount: number; revision: number } };
  badScorer: { experiment: null; errors: UserErrors };
  started: { id: string; status: string };
  progress: { experimentId: string; status: string; rows: number; completed: number; failed: number }[];
  summary: { version: number; draft: boolean; status: string; progress: number; summary: Summary };
  totalCount: number;
  pages: ResultNode[][];
  draftSummary: { draft: boolean; status: string; summary: Summary };
  comparison: { regressions: number; improvements: number; rows: { rowId: string; delta: number | null; regressed: boolean; improved: boolean }[] };
}

/**
 * A client in another language, written only from the schema and the graphql-transport-ws protocol
 * (testing/clients/experiment-client.py: Python's urllib and the websockets package), evaluates the worked
 * example of docs/evaluations.md (examples/continents.json, its dataset and scorers): the offline model
 * gets rows 12 (Egypt → "Asia") and 20 (Australia → "I do not know") wrong in version 1, and the draft
 * (answer-better.json) fixes row 20.
 */
describe("a third-party client of evaluations", () => {
  let database: TestDatabase;
  let api: TestApp;
  beforeAll(async () => {
    database = await openTestDatabase("embedded");
    api = await startTestApp(database);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await database?.close();
  });

  test("builds a dataset, runs an experiment following its progress, reads the summary and results, and compares it with the draft's", async () => {
    const { stdout } = await run(PYTHON, [CLIENT, api.app.url, api.app.wsUrl, api.adminKey, EXAMPLES], { timeout: 240_000 });
    const report = JSON.parse(stdout) as ClientReport;

    expect(report.dataset.refused.added).toBe(0);
    expect(report.dataset.refused.errors).toEqual([expect.objectContaining({ code: "VALIDATION_FAILED", path: expect.arrayContaining(["text", "line 2"]) as unknown })]);
    expect(report.dataset.added).toEqual([18, 2]);
    expect(report.dataset.dataset).toEqual({ rowCount: 20, revision: 2 });
    expect(report.badScorer.experiment).toBeNull();
    expect(report.badScorer.errors.map((error) => [error.code, error.path])).toEqual([["PATTERN_INVALID", ["input", "scorers", "0", "pattern"]]]);

    // The stream: the state when subscribed, then one message per row, ending COMPLETED.
    const { progress } = report;
    expect(progress.every((message) => message.experimentId === report.started.id && message.rows === 20)).toBe(true);
    expect(progress.at(-1)).toMatchObject({ status: "COMPLETED", completed: 20, failed: 0 });
    expect(progress.slice(0, -1).every((message) => message.status === "RUNNING")).toBe(true);
    const done = progress.map((message) => message.completed + message.failed);
    expect(done).toEqual([...done].sort((a, b) => a - b));

    expect(report.summary).toMatchObject({ version: 1, draft: false, status: "COMPLETED", progress: 1 });
    expect(report.summary.summary).toMatchObject({ rows: 20, completed: 20, failed: 0, scores: [{ scorer: "exact", mean: 0.9, passRate: 0.9 }, { scorer: "grade", mean: 0.95, passRate: 0.95 }] });
    expect(report.summary.summary.tokens).toBeGreaterThan(0);

    expect(report.totalCount).toBe(20);
    expect(report.pages.map((page) => page.length)).toEqual([8, 8, 4]);
    const rows = report.pages.flat();
    expect(rows.map((row) => row.position)).toEqual(Array.from({ length: 20 }, (_, k) => k + 1));
    expect(rows.every((row) => row.completed && row.runId !== null)).toBe(true);
    const failing = rows.filter((row) => row.scores.some((score) => !score.pass));
    expect(failing.map((row) => [row.position, row.output, row.expected, row.scores.map((score) => `${score.scorer}:${score.pass}`)])).toEqual([
      [12, "Asia", "Africa", ["exact:false", "grade:true"]],
      [20, "I do not know", "Oceania", ["exact:false", "grade:false"]],
    ]);
    expect(failing[0]!.scores[0]!.reason).toBe('expected "Africa", got "Asia"');

    expect(report.draftSummary).toMatchObject({ draft: true, status: "COMPLETED", summary: { scores: [{ scorer: "exact", mean: 0.95 }, { scorer: "grade", mean: 1 }] } });
    expect(report.comparison).toMatchObject({ regressions: 0, improvements: 1 });
    const positionOf = new Map(rows.map((row) => [row.rowId, row.position]));
    expect(report.comparison.rows.filter((row) => row.improved).map((row) => [positionOf.get(row.rowId), row.delta])).toEqual([[20, 1]]);
    expect(report.comparison.rows.filter((row) => row.regressed)).toEqual([]);
  }, 300_000);
});
