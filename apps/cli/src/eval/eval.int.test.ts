import { once } from "node:events";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../testing/api-server.js";
import { start, weft } from "../testing/cli-process.js";

/**
 * `weft eval` against the real API in its own process (embedded database), on the worked example of
 * docs/evaluations.md: examples/continents.json (the offline scripted model gets 18 of 20 rows right:
 * row 12, Egypt, answers "Asia"; row 20, Australia, "I do not know"), its 20-row dataset and the
 * scorers file with a judge on the offline model.
 */
const EXAMPLES = resolve(fileURLToPath(import.meta.url), "../../../../../examples");
const WORKFLOW_FILE = `${EXAMPLES}/continents.json`;
const DATASET_FILE = `${EXAMPLES}/evaluations/continents.jsonl`;
const SCORERS_FILE = `${EXAMPLES}/evaluations/scorers.json`;
const PROCESS_TEST_MS = 180_000;

interface JsonReport {
  passed: boolean;
  experiment: { id: string; version: number | null; draft: boolean; status: string };
  summary: { rows: number; completed: number; failed: number; scores: { scorer: string; mean: number; passRate: number; min: number | null; met: boolean }[] };
  failingRowCount: number;
  failingRows: { position: number; output: string; expected: unknown; scores: { scorer: string; pass: boolean; reason: string }[] }[];
}

let api: ApiServer;
let env: Record<string, string>;

beforeAll(async () => {
  api = await startApiServer();
  env = { WEFT_API_URL: api.url, WEFT_API_KEY: api.adminKey };
}, 150_000);

afterAll(async () => {
  await api?.stop();
});

const counts = () => api.request<{ datasets: { totalCount: number }; workflows: { totalCount: number } }>("{ datasets { totalCount } workflows { totalCount } }");

describe("weft eval on files", () => {
  it("imports the workflow and dataset files, prints the table and exits 0 when every minimum is met; nothing stays on the server", async () => {
    const result = await weft(["eval", WORKFLOW_FILE, "--dataset", DATASET_FILE, "--scorers", SCORERS_FILE, "--min", "exact=0.9", "--min", "0.5"], env);
    expect(result.stderr).toContain("20/20 rows done");
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[1]).toBe("COMPLETED: 20 rows, 20 completed, 0 failed");
    expect(lines).toContain("exact   0.900  90.0%      ≥ 90.0%  ok");
    expect(lines).toContain("grade   0.950  95.0%      ≥ 50.0%  ok");
    expect(lines).toContain('  row 12: exact 0.00 — expected "Africa", got "Asia"');
    expect(lines).toContain(`  row 20: exact 0.00 — expected "Oceania", got "I do not know"; grade 0.00 — the output is not one continent's name`);
    expect(lines.at(-2)).toBe("PASSED");
    expect(await counts()).toEqual({ datasets: { totalCount: 0 }, workflows: { totalCount: 0 } });
  }, PROCESS_TEST_MS);

  it("exits 1 with --json when a scorer is below its minimum, naming the failing rows", async () => {
    const result = await weft(["eval", WORKFLOW_FILE, "--dataset", DATASET_FILE, "--scorer", "exact", "--scorer", '{"id": "loose", "type": "contains", "ignoreCase": true}', "--min", "95%", "--min", "loose=0.9", "--json"], env);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.passed).toBe(false);
    expect(report.experiment).toMatchObject({ draft: true, version: null, status: "COMPLETED" });
    expect(report.summary.scores).toEqual([
      { scorer: "exact", mean: 0.9, passRate: 0.9, min: 0.95, met: false },
      { scorer: "loose", mean: 0.9, passRate: 0.9, min: 0.9, met: true },
    ]);
    expect(report.failingRowCount).toBe(2);
    expect(report.failingRows.map((row) => [row.position, row.output, row.expected])).toEqual([
      [12, "Asia", "Africa"],
      [20, "I do not know", "Oceania"],
    ]);
  }, PROCESS_TEST_MS);
});

describe("weft eval on a CSV file", () => {
  it("reads a dataset file ending in .csv as CSV", async () => {
    const dir = await mkdtemp(join(tmpdir(), "weft-eval-"));
    try {
      await writeFile(join(dir, "three.csv"), "country,expected,tags\nFrance,Europe,europe\nKenya,Africa,africa\nEgypt,Africa,africa\n");
      const result = await weft(["eval", WORKFLOW_FILE, "--dataset", join(dir, "three.csv"), "--scorer", "exact", "--json"], env);
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout) as JsonReport;
      expect(report.summary).toMatchObject({ rows: 3, completed: 3, scores: [{ scorer: "exact", passRate: 2 / 3 }] });
      expect(report.failingRows.map((row) => [row.position, row.output, row.expected])).toEqual([[3, "Asia", "Africa"]]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, PROCESS_TEST_MS);
});

describe("weft eval interrupted", () => {
  it("cancels the experiment on the server at Ctrl-C, prints what ran and exits 130, deleting its uploads", async () => {
    // The example with every answer held 10 minutes: no row can finish before the interruption.
    const dir = await mkdtemp(join(tmpdir(), "weft-eval-"));
    const slow = JSON.parse(await readFile(WORKFLOW_FILE, "utf8")) as { nodes: { params?: Record<string, unknown> }[] };
    slow.nodes[1]!.params = { ...slow.nodes[1]!.params, delayMs: 600_000 };
    await writeFile(join(dir, "slow.json"), JSON.stringify(slow));
    try {
      const child = start(["eval", join(dir, "slow.json"), "--dataset", DATASET_FILE, "--scorer", "exact", "--concurrency", "2", "--json"], env);
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      const started = new Promise<void>((resolveStarted) =>
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
          if (stderr.includes("0/20 rows done")) resolveStarted();
        }),
      );
      const closed = once(child, "close") as Promise<[number | null]>;
      await started;
      child.kill("SIGINT");
      const [code] = await closed;
      expect(stderr).toContain("cancelling the experiment");
      expect(code).toBe(130);
      const report = JSON.parse(stdout) as JsonReport;
      expect(report.passed).toBe(false);
      expect(report.experiment.status).toBe("CANCELLED");
      expect(report.summary.completed).toBe(0);
      expect(await counts()).toEqual({ datasets: { totalCount: 0 }, workflows: { totalCount: 0 } });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, PROCESS_TEST_MS);
});

describe("weft eval on a workflow and dataset on the server", () => {
  it("runs a published version and the draft, keeping the server's dataset", async () => {
    const document = JSON.parse(await readFile(WORKFLOW_FILE, "utf8")) as unknown;
    const imported = await api.request<{ importWorkflow: { workflow: { id: string } } }>(
      "mutation ($d: JSON!) { importWorkflow(document: $d, publish: true) { workflow { id } } }",
      { d: document },
    );
    const workflowId = imported.importWorkflow.workflow.id;
    const created = await api.request<{ createDataset: { dataset: { id: string } } }>('mutation { createDataset(input: { name: "continents" }) { dataset { id } } }');
    const datasetId = created.createDataset.dataset.id;
    await api.request("mutation ($id: ID!, $text: String!) { importDatasetRows(datasetId: $id, format: JSONL, text: $text) { added } }", { id: datasetId, text: await readFile(DATASET_FILE, "utf8") });

    const published = await weft(["eval", workflowId, "--version", "1", "--dataset", datasetId, "--scorer", "exact", "--json"], env);
    expect(published.code).toBe(0);
    expect(JSON.parse(published.stdout)).toMatchObject({ passed: true, experiment: { version: 1, draft: false }, summary: { scores: [{ scorer: "exact", passRate: 0.9, min: null }] } });

    // The draft learns that Australia is in Oceania (examples/evaluations/answer-better.json).
    const better = JSON.parse(await readFile(`${EXAMPLES}/evaluations/answer-better.json`, "utf8")) as { params: unknown };
    await api.request("mutation ($w: ID!, $p: JSONObject!) { updateNode(workflowId: $w, nodeId: \"answer\", input: { params: $p }) { errors { code } } }", { w: workflowId, p: better.params });
    const draft = await weft(["eval", workflowId, "--draft", "--dataset", datasetId, "--scorer", "exact", "--min", "exact=0.95", "--concurrency", "2"], env);
    expect(draft.code).toBe(0);
    expect(draft.stdout).toContain("exact   0.950  95.0%      ≥ 95.0%  ok");
    expect(await counts()).toEqual({ datasets: { totalCount: 1 }, workflows: { totalCount: 1 } });
  }, PROCESS_TEST_MS);
});

describe("weft eval refusals", () => {
  it("exits 2 naming the problem: a wrong command line, the API's refusal, a wrong key, no server", async () => {
    const cases: [string[], Record<string, string>, string][] = [
      [["eval", WORKFLOW_FILE, "--scorer", "exact"], env, "eval needs --dataset"],
      [["eval", "some-id", "--dataset", DATASET_FILE, "--scorer", "exact"], env, "give --version N or --draft"],
      [["eval", WORKFLOW_FILE, "--dataset", DATASET_FILE, "--scorer", "exact", "--min", "fuzzy=0.5"], env, 'no scorer "fuzzy"'],
      [["eval", WORKFLOW_FILE, "--dataset", DATASET_FILE, "--scorer", "exact", "--min", "150%"], env, "a share of rows from 0 to 1"],
      [["eval", WORKFLOW_FILE, "--dataset", DATASET_FILE, "--scorer", '{"id": "r", "type": "regex", "pattern": "(?<=x)"}'], env, "weft: PATTERN_INVALID:"],
      [["eval", "no-such-workflow", "--draft", "--dataset", "no-such-dataset", "--scorer", "exact"], env, 'weft: NOT_FOUND: workflow "no-such-workflow" does not exist'],
      [["eval", WORKFLOW_FILE, "--dataset", DATASET_FILE, "--scorer", "exact"], { ...env, WEFT_API_KEY: "weft_wrong" }, "weft: UNAUTHENTICATED:"],
      [["eval", WORKFLOW_FILE, "--dataset", DATASET_FILE, "--scorer", "exact"], {}, "set WEFT_API_URL"],
    ];
    for (const [args, caseEnv, message] of cases) {
      const result = await weft(args, caseEnv);
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code: 2, stdout: "" });
      expect(result.stderr).toContain(message);
    }
    expect(await counts()).toEqual({ datasets: { totalCount: 1 }, workflows: { totalCount: 1 } });
  }, PROCESS_TEST_MS);
});
