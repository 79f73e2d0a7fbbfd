import { afterEach, beforeEach, expect, test } from "vitest";
import { describeEachDatabase } from "../../testing/database.js";
import { startTestApp, type TestApp } from "../../testing/app.js";
import { graphql } from "../../testing/gql/index.js";

const CreateDataset = graphql(`
  mutation CreateDataset($input: CreateDatasetInput!) {
    createDataset(input: $input) { dataset { id name description rowCount revision } errors { code message path } }
  }
`);

const AddRows = graphql(`
  mutation AddDatasetRows($datasetId: ID!, $rows: [DatasetRowInput!]!) {
    addDatasetRows(datasetId: $datasetId, rows: $rows) { added dataset { rowCount revision } errors { code message path } }
  }
`);

const ImportRows = graphql(`
  mutation ImportDatasetRows($datasetId: ID!, $format: DatasetFormat!, $text: String!) {
    importDatasetRows(datasetId: $datasetId, format: $format, text: $text) { added dataset { rowCount } errors { code message path } }
  }
`);

const DatasetRows = graphql(`
  query DatasetRows($id: ID!, $first: Int, $after: String) {
    dataset(id: $id) { name rowCount rows(first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { position inputs { nodeId content } expected tags } } } }
  }
`);

const DeleteDataset = graphql(`
  mutation DeleteDataset($id: ID!) { deleteDataset(id: $id) { id errors { code message } } }
`);

describeEachDatabase("datasets over the API", (suite) => {
  let api: TestApp;
  beforeEach(async () => {
    api = await startTestApp(suite.db());
  }, 60_000);
  afterEach(async () => {
    await api?.close();
  });

  async function dataset(name = "capitals"): Promise<string> {
    const { createDataset } = await api.admin.request(CreateDataset, { input: { name, description: "what the capital of a country is" } });
    expect(createDataset.errors).toEqual([]);
    return createDataset.dataset!.id;
  }

  test("rows added, imported from JSONL and from CSV are listed in the order added, with their expected values as given", async () => {
    const id = await dataset();
    const added = await api.admin.request(AddRows, { datasetId: id, rows: [{ inputs: [{ nodeId: "q", content: "France?" }], expected: "Paris", tags: ["eu"] }] });
    expect(added.addDatasetRows).toMatchObject({ added: 1, dataset: { rowCount: 1, revision: 1 }, errors: [] });
    const jsonl = ['{"inputs": {"q": "Japan?"}, "expected": "Tokyo"}', "", '{"inputs": [{"nodeId": "q", "content": "Korea?"}], "expected": {"city": "Seoul"}, "tags": ["asia"]}'].join("\n");
    expect((await api.admin.request(ImportRows, { datasetId: id, format: "JSONL", text: jsonl })).importDatasetRows).toMatchObject({ added: 2, dataset: { rowCount: 3 } });
    const csv = '\uFEFFq,expected,tags\n"Italy, the country?",Rome,"eu, south"\nPeru?,,\n';
    expect((await api.admin.request(ImportRows, { datasetId: id, format: "CSV", text: csv })).importDatasetRows).toMatchObject({ added: 2, dataset: { rowCount: 5 } });
    const json = 'q,expected_json\nNumbers?,"[1, 2]"\n';
    expect((await api.admin.request(ImportRows, { datasetId: id, format: "CSV", text: json })).importDatasetRows).toMatchObject({ added: 1 });

    const first = (await api.admin.request(DatasetRows, { id, first: 4 })).dataset!;
    expect(first.rows.totalCount).toBe(6);
    expect(first.rows.edges.map(({ node }) => [node.position, node.inputs[0]!.content, node.expected, node.tags])).toEqual([
      [1, "France?", "Paris", ["eu"]],
      [2, "Japan?", "Tokyo", []],
      [3, "Korea?", { city: "Seoul" }, ["asia"]],
      [4, "Italy, the country?", "Rome", ["eu", "south"]],
    ]);
    const rest = (await api.admin.request(DatasetRows, { id, first: 4, after: first.rows.pageInfo.endCursor })).dataset!;
    expect(rest.rows.pageInfo.hasNextPage).toBe(false);
    expect(rest.rows.edges.map(({ node }) => [node.position, node.expected])).toEqual([
      [5, null],
      [6, [1, 2]],
    ]);
  });

  test("a bad import adds nothing and names each bad line", async () => {
    const id = await dataset();
    const jsonl = ['{"inputs": {"q": "ok"}}', "{not json", '{"inputs": {"q": "x"}, "expectd": 1}'].join("\n");
    const refused = (await api.admin.request(ImportRows, { datasetId: id, format: "JSONL", text: jsonl })).importDatasetRows;
    expect(refused.added).toBe(0);
    expect(refused.errors.map((error) => [error.code, error.path?.slice(0, 2)])).toEqual([
      ["VALIDATION_FAILED", ["text", "line 2"]],
      ["VALIDATION_FAILED", ["text", "line 3"]],
    ]);
    const ragged = (await api.admin.request(ImportRows, { datasetId: id, format: "CSV", text: "q,expected\na,b,c\n" })).importDatasetRows;
    expect(ragged.errors).toMatchObject([{ code: "VALIDATION_FAILED", path: ["text", "line 2"] }]);
    const bothExpected = (await api.admin.request(ImportRows, { datasetId: id, format: "CSV", text: "q,expected,expected_json\na,b,1\n" })).importDatasetRows;
    expect(bothExpected.errors).toMatchObject([{ code: "VALIDATION_FAILED", path: ["text", "line 1"] }]);
    expect((await api.admin.request(DatasetRows, { id })).dataset).toMatchObject({ rowCount: 0 });
  });

  test("limits: 10,000 rows a call, sizes per row, a unique visible name", async () => {
    const id = await dataset();
    const tooMany = Array.from({ length: 10_001 }, () => ({ inputs: [{ nodeId: "q", content: "x" }] }));
    expect((await api.admin.request(AddRows, { datasetId: id, rows: tooMany })).addDatasetRows.errors).toMatchObject([{ code: "LIMIT_EXCEEDED", path: ["rows"] }]);
    const tenThousand = Array.from({ length: 10_000 }, (_, index) => JSON.stringify({ inputs: { q: String(index) } })).join("\n");
    expect((await api.admin.request(ImportRows, { datasetId: id, format: "JSONL", text: tenThousand })).importDatasetRows).toMatchObject({ added: 10_000, errors: [] });
    const tags = Array.from({ length: 21 }, (_, index) => `t${index}`);
    const bad = await api.admin.request(AddRows, { datasetId: id, rows: [{ inputs: [] }, { inputs: [{ nodeId: "q", content: "x" }], tags }] });
    expect(bad.addDatasetRows.errors.map((error) => [error.code, error.path])).toEqual([
      ["VALIDATION_FAILED", ["rows", "0", "inputs"]],
      ["LIMIT_EXCEEDED", ["rows", "1", "tags"]],
    ]);
    expect((await api.admin.request(CreateDataset, { input: { name: "capitals" } })).createDataset.errors).toMatchObject([{ code: "CONFLICT" }]);
    expect((await api.admin.request(CreateDataset, { input: { name: "\u200B" } })).createDataset.errors).toMatchObject([{ code: "VALIDATION_FAILED", path: ["input", "name"] }]);
  });

  test("deleting a dataset deletes its rows", async () => {
    const id = await dataset();
    await api.admin.request(AddRows, { datasetId: id, rows: [{ inputs: [{ nodeId: "q", content: "x" }] }] });
    expect((await api.admin.request(DeleteDataset, { id })).deleteDataset).toEqual({ id, errors: [] });
    expect(await suite.db().prisma.datasetRow.count()).toBe(0);
    expect((await api.admin.request(DeleteDataset, { id })).deleteDataset.errors).toMatchObject([{ code: "NOT_FOUND" }]);
    expect((await api.admin.request(AddRows, { datasetId: id, rows: [{ inputs: [{ nodeId: "q", content: "x" }] }] })).addDatasetRows.errors).toMatchObject([{ code: "NOT_FOUND" }]);
  });
});

