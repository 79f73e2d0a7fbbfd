import { afterEach, beforeEach, expect, test } from "vitest";
import { describeEachDatabase } from "../../testing/database.js";
import { seedWorkflow, startTestApp, type TestApp } from "../../testing/app.js";
import { graphql } from "../../testing/gql/index.js";
import { arrows } from "../../testing/workflows.js";

const GateDataset = graphql(`
  mutation GateDataset($input: CreateDatasetInput!) { createDataset(input: $input) { dataset { id } errors { code } } }
`);

const GateRows = graphql(`
  mutation GateRows($datasetId: ID!, $rows: [DatasetRowInput!]!) { addDatasetRows(datasetId: $datasetId, rows: $rows) { added errors { code } } }
`);

const SetGate = graphql(`
  mutation SetGate($workflowId: ID!, $gate: PublishGateInput) {
    setPublishGate(workflowId: $workflowId, gate: $gate) { publishGate { datasetId scorers minMean noRegression } errors { code message path } }
  }
`);

const GateOfWorkflow = graphql(`
  query GateOfWorkflow($id: ID!) { workflow(id: $id) { publishGate { datasetId minMean noRegression } } }
`);

const GatedPublish = graphql(`
  mutation GatedPublish($id: ID!) { publishWorkflow(id: $id) { version { number } errors { code message path experimentIds } } }
`);

const GateNode = graphql(`
  mutation GateNode($workflowId: ID!, $nodeId: ID!, $input: UpdateNodeInput!) { updateNode(workflowId: $workflowId, nodeId: $nodeId, input: $input) { errors { code message } } }
`);

const GateRegressions = graphql(`
  query GateRegressions($id: ID!) { experiment(id: $id) { results(regressionsOnly: true) { totalCount edges { node { position } } } } }
`);

const DeleteGateDataset = graphql(`
  mutation DeleteGateDataset($id: ID!) { deleteDataset(id: $id) { errors { code } } }
`);

/** The offline scripted model answering right only for the inputs `right` names, "wrong" otherwise. */
function rightOnly(right: string): Record<string, unknown> {
  const reply = (output: string) => ({ description: "answered", output });
  return { match: [{ pattern: right, replies: [reply(right)] }], replies: [reply("wrong")] };
}

describeEachDatabase("the publish gate", (suite) => {
  let api: TestApp;
  beforeEach(async () => {
    api = await startTestApp(suite.db());
  }, 60_000);
  afterEach(async () => {
    await api?.close();
  });

  test("refuses a draft that regresses a row or misses the minimum, reuses experiments on the same content, and publishes an improvement", async () => {
    //   in ──▶ g1 ──▶ out     g1: version 1 answers only "alpha" right
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"], { model: "scripted", params: rightOnly("alpha") }));
    const { createDataset } = await api.admin.request(GateDataset, { input: { name: "greek" } });
    const datasetId = createDataset.dataset!.id;
    const words = ["alpha", "bravo", "charlie"];
    await api.admin.request(GateRows, { datasetId, rows: words.map((word) => ({ inputs: [{ nodeId: "in", content: word }], expected: word })) });
    const rowIds = (await suite.db().prisma.datasetRow.findMany({ where: { datasetId }, orderBy: { position: "asc" }, select: { id: true } })).map((row) => row.id);
    expect((await api.admin.request(GatedPublish, { id: workflowId })).publishWorkflow).toEqual({ version: { number: 1 }, errors: [] });

    const scorers = [{ id: "exact", type: "exact" }];
    const gate = await api.admin.request(SetGate, { workflowId, gate: { datasetId, scorers, minMean: 0.5, noRegression: true } });
    expect(gate.setPublishGate).toEqual({ publishGate: { datasetId, scorers, minMean: 0.5, noRegression: true }, errors: [] });
    expect((await api.admin.request(GateOfWorkflow, { id: workflowId })).workflow!.publishGate).toEqual({ datasetId, minMean: 0.5, noRegression: true });

    // The draft answers only "bravo" right: row 1 regressed, and the mean (1/3) is below 0.5.
    await api.admin.request(GateNode, { workflowId, nodeId: "g1", input: { params: rightOnly("bravo") } });
    const refused = (await api.admin.request(GatedPublish, { id: workflowId })).publishWorkflow;
    expect(refused.version).toBeNull();
    expect(refused.errors.map((error) => [error.code, error.path])).toEqual([
      ["PUBLISH_GATE_FAILED", ["scorers", "exact"]],
      ["PUBLISH_GATE_FAILED", ["rows", rowIds[0]]],
    ]);
    expect(refused.errors[0]!.message).toMatch(/below the minimum mean 0\.5: exact \(mean 0\.333\)/);
    expect(refused.errors[1]!.message).toMatch(/1 rows regressed against version 1 .*: rows 1$/);
    expect(await suite.db().prisma.experiment.count()).toBe(2);
    // The experiments compared, as ids: the draft's, then version 1's.
    const candidate = await suite.db().prisma.experiment.findFirstOrThrow({ where: { workflowId, draft: true }, select: { id: true } });
    const baseline = await suite.db().prisma.experiment.findFirstOrThrow({ where: { workflowId, draft: false }, select: { id: true } });
    expect(refused.errors.map((error) => error.experimentIds)).toEqual([[candidate.id], [candidate.id, baseline.id]]);
    // results(regressionsOnly) of the gate's draft experiment names the same row, against the same baseline.
    expect((await api.admin.request(GateRegressions, { id: candidate.id })).experiment!.results).toMatchObject({ totalCount: 1, edges: [{ node: { position: 1 } }] });

    // Asking again on the same content runs nothing new: both experiments are reused.
    expect((await api.admin.request(GatedPublish, { id: workflowId })).publishWorkflow.errors).toHaveLength(2);
    expect(await suite.db().prisma.experiment.count()).toBe(2);

    // The echo model answers every row right: an improvement on version 1, published as version 2.
    await api.admin.request(GateNode, { workflowId, nodeId: "g1", input: { model: "echo", params: {} } });
    expect((await api.admin.request(GatedPublish, { id: workflowId })).publishWorkflow).toEqual({ version: { number: 2 }, errors: [] });
    expect(await suite.db().prisma.experiment.count()).toBe(3);

    // The gate's dataset cannot go while the gate names it; removing the gate frees it.
    expect((await api.admin.request(DeleteGateDataset, { id: datasetId })).deleteDataset.errors).toMatchObject([{ code: "CONFLICT" }]);
    expect((await api.admin.request(SetGate, { workflowId, gate: null })).setPublishGate).toEqual({ publishGate: null, errors: [] });
    expect((await api.admin.request(DeleteGateDataset, { id: datasetId })).deleteDataset.errors).toEqual([]);
  }, 180_000);

  test("a gate needs a dataset that exists, valid scorers and something to require", async () => {
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const refused = await api.admin.request(SetGate, { workflowId, gate: { datasetId: "00000000-0000-4000-8000-000000000000", scorers: [{ id: "x", type: "nope" }] } });
    expect(refused.setPublishGate.errors.map((error) => [error.code, error.path?.[1]])).toEqual([
      ["VALIDATION_FAILED", "scorers"],
      ["VALIDATION_FAILED", undefined],
      ["NOT_FOUND", "datasetId"],
    ]);
  });
});
