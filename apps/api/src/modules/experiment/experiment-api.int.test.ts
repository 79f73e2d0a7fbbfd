import { afterEach, beforeEach, expect, test } from "vitest";
import { describeEachDatabase } from "../../testing/database.js";
import { seedWorkflow, startTestApp, type TestApp } from "../../testing/app.js";
import { graphql } from "../../testing/gql/index.js";
import { approvalDocument, arrows } from "../../testing/workflows.js";

const CreateDataset = graphql(`
  mutation ExperimentDataset($input: CreateDatasetInput!) { createDataset(input: $input) { dataset { id } errors { code message } } }
`);

const AddRows = graphql(`
  mutation ExperimentRows($datasetId: ID!, $rows: [DatasetRowInput!]!) { addDatasetRows(datasetId: $datasetId, rows: $rows) { added errors { code message } } }
`);

const StartExperiment = graphql(`
  mutation StartExperiment($input: StartExperimentInput!) {
    startExperiment(input: $input) { experiment { id status draft version } errors { code message path } }
  }
`);

const CancelExperiment = graphql(`
  mutation CancelExperiment($id: ID!) { cancelExperiment(id: $id) { experiment { id status } errors { code message } } }
`);

const ExperimentProgress = graphql(`
  subscription ExperimentProgress($id: ID!) { experimentProgress(id: $id) { status rows completed failed } }
`);

const ExperimentDetails = graphql(`
  query ExperimentDetails($id: ID!, $first: Int, $after: String) {
    experiment(id: $id) {
      status progress
      summary { rows completed failed scores { scorer mean passRate } latencyP50Ms latencyP95Ms tokens costUsd }
      results(first: $first, after: $after) {
        totalCount pageInfo { hasNextPage endCursor }
        edges { node { position runId output expected completed error scores { scorer score pass reason } } }
      }
    }
  }
`);

const PublishForExperiment = graphql(`
  mutation PublishForExperiment($id: ID!) { publishWorkflow(id: $id) { version { number } errors { code message } } }
`);

const RegressedResults = graphql(`
  query RegressedResults($id: ID!) {
    experiment(id: $id) { results(regressionsOnly: true) { totalCount edges { node { position output } } } }
  }
`);

const ImportForExperiment = graphql(`
  mutation ImportForExperiment($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code } } }
`);

const ExperimentRuns = graphql(`
  query ExperimentRuns($workflowId: ID, $experimentId: ID, $status: [RunStatus!]) {
    runs(workflowId: $workflowId, experimentId: $experimentId, status: $status, first: 100) { totalCount edges { node { experimentId } } }
  }
`);

const CompareExperiments = graphql(`
  query CompareExperiments($a: ID!, $b: ID!) {
    compareExperiments(a: $a, b: $b) {
      regressions improvements
      summaryA { scores { scorer passRate } } summaryB { scores { scorer passRate } }
      rows { rowId delta regressed improved scoresA { scorer pass } scoresB { scorer pass } }
    }
  }
`);

const SCORERS = [
  { id: "exact", type: "exact" },
  { id: "says-answer", type: "contains", value: "answer" },
];

describeEachDatabase("experiments over the API", (suite) => {
  let api: TestApp;
  beforeEach(async () => {
    api = await startTestApp(suite.db(), { env: { WEFT_PROCESS_CONCURRENCY: "8" } });
  }, 60_000);
  afterEach(async () => {
    await api?.close();
  });

  async function dataset(rows: { inputs: { nodeId: string; content: string }[]; expected: unknown }[]): Promise<string> {
    const { createDataset } = await api.admin.request(CreateDataset, { input: { name: `rows ${rows.length}` } });
    const id = createDataset.dataset!.id;
    expect((await api.admin.request(AddRows, { datasetId: id, rows })).addDatasetRows).toMatchObject({ added: rows.length, errors: [] });
    return id;
  }

  async function finished(id: string): Promise<{ status: string; completed: number; failed: number }> {
    const client = api.admin.ws();
    try {
      const progress = api.admin.subscribe(client, ExperimentProgress, { id });
      await progress.ended;
      expect(progress.errors).toEqual([]);
      return progress.items.at(-1)!.experimentProgress;
    } finally {
      await client.dispose();
    }
  }

  /** Most runs of the experiment active at one time, from their stored creation and end times. */
  async function mostAtOnce(experimentId: string): Promise<number> {
    const runs = await suite.db().prisma.run.findMany({ where: { experimentId }, select: { createdAt: true, finishedAt: true } });
    const moments = runs.flatMap((run) => [
      { at: run.createdAt.getTime(), step: 1 },
      { at: run.finishedAt!.getTime(), step: -1 },
    ]);
    // An end and a start at the same millisecond: the end first (the slot was given back before).
    moments.sort((x, y) => x.at - y.at || x.step - y.step);
    let active = 0;
    let most = 0;
    for (const moment of moments) most = Math.max(most, (active += moment.step));
    return most;
  }

  test("200 rows run as runs tagged with the experiment, scored and summarized; a wrong answer and a refused row fail; the cap holds", async () => {
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const rows = Array.from({ length: 200 }, (_, index) => ({ inputs: [{ nodeId: "in", content: `answer ${index + 1}` }], expected: `answer ${index + 1}` as unknown }));
    rows[6]!.expected = "answer seven";
    rows[12]!.inputs = [{ nodeId: "nowhere", content: "answer 13" }];
    const datasetId = await dataset(rows);
    const started = await api.admin.request(StartExperiment, { input: { workflowId, draft: true, datasetId, scorers: SCORERS, concurrency: 3 } });
    expect(started.startExperiment.errors).toEqual([]);
    const id = started.startExperiment.experiment!.id;

    expect(await finished(id)).toEqual({ status: "COMPLETED", rows: 200, completed: 199, failed: 1 });
    const { experiment } = await api.admin.request(ExperimentDetails, { id, first: 15 });
    expect(experiment).toMatchObject({ status: "COMPLETED", progress: 1, summary: { rows: 200, completed: 199, failed: 1, costUsd: null } });
    expect(experiment!.summary.scores).toEqual([
      { scorer: "exact", mean: 198 / 200, passRate: 198 / 200 },
      { scorer: "says-answer", mean: 199 / 200, passRate: 199 / 200 },
    ]);
    expect(experiment!.summary.latencyP50Ms).toBeGreaterThanOrEqual(0);
    expect(experiment!.summary.latencyP95Ms).toBeGreaterThanOrEqual(experiment!.summary.latencyP50Ms!);
    const results = experiment!.results.edges.map(({ node }) => node);
    expect(experiment!.results.totalCount).toBe(200);
    expect(results[0]).toMatchObject({ position: 1, output: "answer 1", expected: "answer 1", completed: true, scores: [{ scorer: "exact", score: 1, pass: true }, { pass: true }] });
    expect(results[6]).toMatchObject({ output: "answer 7", expected: "answer seven", scores: [{ scorer: "exact", score: 0, pass: false, reason: 'expected "answer seven", got "answer 7"' }, { pass: true }] });
    expect(results[12]).toMatchObject({ runId: null, output: null, completed: false, scores: [{ pass: false }, { pass: false }] });
    expect(results[12]!.error).toMatch(/^[A-Z_]+: .*nowhere/);

    // Experiments' runs are kept out of the default run list.
    expect((await api.admin.request(ExperimentRuns, { workflowId })).runs.totalCount).toBe(0);
    expect((await api.admin.request(ExperimentRuns, { experimentId: id })).runs.totalCount).toBe(199);
    expect(await mostAtOnce(id)).toBeLessThanOrEqual(3);
  }, 300_000);

  test("cancelling stops starting rows, cancels the runs in flight and keeps them as failed rows", async () => {
    // The offline model waits ten minutes per row: only cancelling ends these runs.
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"], { params: { delayMs: 600_000 } }));
    const datasetId = await dataset(Array.from({ length: 20 }, (_, index) => ({ inputs: [{ nodeId: "in", content: `q${index}` }], expected: `q${index}` })));
    const id = (await api.admin.request(StartExperiment, { input: { workflowId, draft: true, datasetId, scorers: SCORERS, concurrency: 2 } })).startExperiment.experiment!.id;
    const client = api.admin.ws();
    const progress = api.admin.subscribe(client, ExperimentProgress, { id });
    // Wait until both rows in flight are running.
    for (;;) {
      const running = await api.admin.request(ExperimentRuns, { experimentId: id, status: ["RUNNING"] });
      if (running.runs.totalCount === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await api.admin.request(CancelExperiment, { id })).cancelExperiment).toEqual({ experiment: { id, status: "CANCELLED" }, errors: [] });
    await progress.ended;
    await client.dispose();
    expect(progress.items.at(-1)!.experimentProgress).toEqual({ status: "CANCELLED", rows: 20, completed: 0, failed: 2 });
    const { experiment } = await api.admin.request(ExperimentDetails, { id });
    expect(experiment!.results.edges.map(({ node }) => [node.position, node.completed, node.error?.split(":")[0]])).toEqual([
      [1, false, "RUN_CANCELLED"],
      [2, false, "RUN_CANCELLED"],
    ]);
    expect(experiment!.summary).toMatchObject({ rows: 20, completed: 0, failed: 2 });
    expect((await api.admin.request(ExperimentRuns, { experimentId: id })).runs.totalCount).toBe(2);
    expect((await api.admin.request(CancelExperiment, { id })).cancelExperiment.errors).toMatchObject([{ code: "CONFLICT" }]);
  }, 120_000);

  test("two versions compared name exactly the rows that regressed and improved", async () => {
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const datasetId = await dataset([
      { inputs: [{ nodeId: "in", content: "kept" }], expected: "kept" },
      { inputs: [{ nodeId: "in", content: "lost" }], expected: "lost" },
      { inputs: [{ nodeId: "in", content: "found" }], expected: "FOUND" },
    ]);
    expect((await api.admin.request(PublishForExperiment, { id: workflowId })).publishWorkflow.errors).toEqual([]);
    const run = async (target: { version: number } | { draft: true }, scorers: unknown) => {
      const id = (await api.admin.request(StartExperiment, { input: { workflowId, ...target, datasetId, scorers } })).startExperiment.experiment!.id;
      expect((await finished(id)).status).toBe("COMPLETED");
      return id;
    };
    // The same outputs judged two ways: "lost" passes a and fails b, "found" fails a and passes b.
    const a = await run({ version: 1 }, [{ id: "match", type: "regex", pattern: "^(kept|lost)$" }]);
    const b = await run({ draft: true }, [{ id: "match", type: "regex", pattern: "^(kept|found)$", ignoreCase: true }]);
    const { compareExperiments } = await api.admin.request(CompareExperiments, { a, b });
    expect(compareExperiments).toMatchObject({ regressions: 1, improvements: 1, summaryA: { scores: [{ scorer: "match", passRate: 2 / 3 }] }, summaryB: { scores: [{ scorer: "match", passRate: 2 / 3 }] } });
    expect(compareExperiments.rows.map((row) => [row.delta, row.regressed, row.improved])).toEqual([
      [0, false, false],
      [-1, true, false],
      [1, false, true],
    ]);
    // results(regressionsOnly) compares as the publish gate does: only with the published version's experiment
    // judged by the same scorers (publish-gate.int.test.ts has one) — a is judged by others, so b names none.
    expect((await api.admin.request(RegressedResults, { id: b })).experiment!.results.totalCount).toBe(0);
    expect((await api.admin.request(RegressedResults, { id: a })).experiment!.results.totalCount).toBe(0);
  }, 120_000);

  test("a row whose run stops at a human step is cancelled and fails RUN_WAITING: the experiment still ends", async () => {
    const { importWorkflow } = await api.admin.request(ImportForExperiment, { document: approvalDocument("Needs a person") });
    const workflowId = importWorkflow.workflow!.id;
    const datasetId = await dataset([{ inputs: [{ nodeId: "draft", content: "x" }], expected: "published: x" }]);
    const { startExperiment } = await api.admin.request(StartExperiment, { input: { workflowId, draft: true, datasetId, scorers: SCORERS } });
    const id = startExperiment.experiment!.id;
    expect(await finished(id)).toMatchObject({ status: "COMPLETED", completed: 0, failed: 1 });
    const { experiment } = await api.admin.request(ExperimentDetails, { id });
    expect(experiment!.results.edges.map(({ node }) => node.error?.split(":")[0])).toEqual(["RUN_WAITING"]);
    const runs = await suite.db().prisma.run.findMany({ where: { experimentId: id }, select: { status: true } });
    expect(runs).toEqual([{ status: "CANCELLED" }]);
  }, 120_000);

  test("bad starts are refused with every reason and start nothing", async () => {
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const datasetId = await dataset([{ inputs: [{ nodeId: "in", content: "x" }], expected: "x" }]);
    const refused = await api.admin.request(StartExperiment, {
      input: { workflowId, datasetId, version: 3, scorers: [{ id: "r", type: "regex", pattern: "(?<=x)" }, { id: "j", type: "judge", provider: "nowhere", model: "m", rubric: "r" }], concurrency: 50 },
    });
    expect(refused.startExperiment.errors.map((error) => [error.code, error.path])).toEqual([
      ["PATTERN_INVALID", ["input", "scorers", "0", "pattern"]],
      ["VALIDATION_FAILED", ["input", "concurrency"]],
      ["NOT_FOUND", ["input", "version"]],
    ]);
    const noJudge = await api.admin.request(StartExperiment, { input: { workflowId, datasetId, draft: true, scorers: [{ id: "j", type: "judge", provider: "nowhere", model: "m", rubric: "r" }] } });
    expect(noJudge.startExperiment.errors).toMatchObject([{ code: "MODEL_UNAVAILABLE", path: ["input", "scorers", "0", "provider"] }]);
    expect(await suite.db().prisma.experiment.count()).toBe(0);
  });
});
