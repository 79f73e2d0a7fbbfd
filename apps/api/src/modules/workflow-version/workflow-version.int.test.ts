import { afterEach, expect, test } from "vitest";
import { startTestApp, seedWorkflow, type TestApp } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";
import { arrows } from "../../testing/workflows.js";
import { contentHash } from "./workflow-content-hash.js";

/**
 * Published versions through the real server, on both databases: publish, list, read, compare,
 * export and import, refusals that store nothing, and races that must leave consecutive numbers.
 */

const Publish = graphql(`
  mutation VerPublish($id: ID!, $note: String) {
    publishWorkflow(id: $id, note: $note) {
      version { id workflowId number note contentHash editVersion publishedBy publishedAt }
      errors { code message nodeIds edgeIds path }
    }
  }
`);

const Versions = graphql(`
  query VerList($workflowId: ID!, $first: Int, $after: String) {
    workflowVersions(workflowId: $workflowId, first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { number note editVersion contentHash } }
    }
    workflow(id: $workflowId) {
      version
      publishedVersion { number }
      versions(first: 2) { totalCount edges { node { number } } }
    }
  }
`);

const VersionContent = graphql(`
  query VerContent($workflowId: ID!, $number: Int!) {
    workflowVersion(workflowId: $workflowId, number: $number) {
      number name outputFormat intensity knowledgeBase prompts { generation }
      nodes { id type model params position { x y } }
      edges { id source target order }
    }
  }
`);

const Compare = graphql(`
  query VerCompare($workflowId: ID!, $from: Int!, $to: Int) {
    compareWorkflowVersions(workflowId: $workflowId, from: $from, to: $to) {
      from to identical
      nodes { added removed changed { id fields { field from to } } }
      edges { added removed changed { id fields { field from to } } }
      settings { added { field from to } removed { field from to } changed { field from to } }
    }
  }
`);

const Export = graphql(`
  query VerExport($id: ID!, $version: Int) { exportWorkflow(id: $id, version: $version) }
`);

const ImportPublished = graphql(`
  mutation VerImport($document: JSON!, $note: String) {
    importWorkflow(document: $document, publish: true, note: $note) {
      workflow { id publishedVersion { number note contentHash } }
      errors { code message path }
    }
  }
`);

const Edit = graphql(`
  mutation VerEdit($workflowId: ID!, $nodeId: ID!, $input: UpdateNodeInput!, $edgeId: ID!) {
    updateNode(workflowId: $workflowId, nodeId: $nodeId, input: $input) { errors { code message } }
    removeEdge(workflowId: $workflowId, edgeId: $edgeId) { errors { code message } }
  }
`);

const SetStep = graphql(`
  mutation VerSetStep($workflowId: ID!, $step: Int!) {
    updateNode(workflowId: $workflowId, nodeId: "g1", input: { params: { step: $step } }) { workflow { version } errors { code message } }
  }
`);

const AddGeneration = graphql(`
  mutation VerAddNode($workflowId: ID!, $id: ID!) {
    addNode(workflowId: $workflowId, input: { id: $id, type: "generation", provider: "offline", model: "echo" }) {
      workflow { version }
      errors { code message }
    }
  }
`);

describeEachDatabase("published workflow versions", (suite) => {
  let api: TestApp | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  async function workflowWithVersion(note = "first") {
    // in ──e1──▶ g1 ──e2──▶ v1 ──e3──▶ out
    api = await startTestApp(suite.db());
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->v1->out"]));
    const { publishWorkflow } = await api.admin.request(Publish, { id: workflowId, note });
    expect(publishWorkflow.errors).toEqual([]);
    return { workflowId, version: publishWorkflow.version! };
  }

  test("publishing freezes the workflow as version 1 with its note, publisher, edit counter and content hash", async () => {
    const { workflowId, version } = await workflowWithVersion("launch");
    expect(version).toMatchObject({ workflowId, number: 1, note: "launch", editVersion: 1, publishedBy: "admin (WEFT_ADMIN_KEY)" });
    const exported = await api!.admin.request(Export, { id: workflowId, version: 1 });
    expect(version.contentHash).toBe(contentHash(JSON.parse(exported.exportWorkflow!)));
    const { workflowVersion } = await api!.admin.request(VersionContent, { workflowId, number: 1 });
    expect(workflowVersion!.nodes.map((node) => node.id)).toEqual(["in", "g1", "v1", "out"]);
    expect(workflowVersion!.edges.map((edge) => [edge.id, edge.order])).toEqual([["e1", 1], ["e2", 2], ["e3", 3]]);
    expect(workflowVersion).toMatchObject({ name: "test workflow", intensity: "LOW", knowledgeBase: null });
  });

  test("a version keeps its content while the draft changes, and the comparison names exactly what changed", async () => {
    const { workflowId } = await workflowWithVersion();
    // draft:  in ──e1──▶ g1 (model flaky, temperature 0.5)   v1 ──e3──▶ out    (e2 removed; g2 added)
    const edit = await api!.admin.request(Edit, { workflowId, nodeId: "g1", input: { model: "flaky", params: { temperature: 0.5 } }, edgeId: "e2" });
    expect([edit.updateNode.errors, edit.removeEdge.errors]).toEqual([[], []]);
    expect((await api!.admin.request(AddGeneration, { workflowId, id: "g2" })).addNode.errors).toEqual([]);

    const { workflowVersion } = await api!.admin.request(VersionContent, { workflowId, number: 1 });
    expect(workflowVersion!.nodes.find((node) => node.id === "g1")).toMatchObject({ model: "echo", params: null });
    const { compareWorkflowVersions: diff } = await api!.admin.request(Compare, { workflowId, from: 1 });
    expect(diff).toEqual({
      from: 1,
      to: null,
      identical: false,
      nodes: {
        added: ["g2"],
        removed: [],
        changed: [{ id: "g1", fields: [{ field: "model", from: "echo", to: "flaky" }, { field: "params", from: null, to: { temperature: 0.5 } }] }],
      },
      edges: { added: [], removed: ["e2"], changed: [] },
      settings: { added: [], removed: [], changed: [] },
    });
  });

  test("versions are listed newest first, page by page, and the workflow names its latest", async () => {
    const { workflowId } = await workflowWithVersion();
    for (const note of ["second", "third"]) expect((await api!.admin.request(Publish, { id: workflowId, note })).publishWorkflow.errors).toEqual([]);
    const first = await api!.admin.request(Versions, { workflowId, first: 2 });
    expect(first.workflowVersions.edges.map((edge) => [edge.node.number, edge.node.note])).toEqual([[3, "third"], [2, "second"]]);
    expect(first.workflowVersions).toMatchObject({ totalCount: 3, pageInfo: { hasNextPage: true } });
    expect(first.workflow).toMatchObject({ publishedVersion: { number: 3 }, versions: { totalCount: 3, edges: [{ node: { number: 3 } }, { node: { number: 2 } }] } });
    const rest = await api!.admin.request(Versions, { workflowId, first: 2, after: first.workflowVersions.pageInfo.endCursor });
    expect(rest.workflowVersions.edges.map((edge) => edge.node.number)).toEqual([1]);
    expect(rest.workflowVersions.pageInfo.hasNextPage).toBe(false);
    // Publishing the same content again is a new version with the same hash.
    expect(new Set(first.workflowVersions.edges.map((edge) => edge.node.contentHash)).size).toBe(1);
  });

  test("a graph that breaks a rule is not published, with every violation listed, and nothing is stored", async () => {
    api = await startTestApp(suite.db());
    // in ──▶ g1        g2 (no pre-node)        out (no pre-node)
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1", "g2", "out"]));
    const { publishWorkflow } = await api.admin.request(Publish, { id: workflowId, note: "broken" });
    expect(publishWorkflow.version).toBeNull();
    expect(publishWorkflow.errors.map((error) => [error.code, error.nodeIds])).toEqual(
      expect.arrayContaining([["MISSING_POST", ["g1"]], ["MISSING_PRE", ["g2"]], ["MISSING_PRE", ["out"]]]),
    );
    const tooLong = await api.admin.request(Publish, { id: workflowId, note: "x".repeat(2_001) });
    expect(tooLong.publishWorkflow.errors.map((error) => [error.code, error.path])).toEqual([["LIMIT_EXCEEDED", ["note"]]]);
    const unknown = await api.admin.request(Publish, { id: "00000000-0000-0000-0000-000000000000" });
    expect(unknown.publishWorkflow.errors.map((error) => error.code)).toEqual(["NOT_FOUND"]);
    expect(await suite.db().prisma.workflowVersion.count()).toBe(0);
  });

  test("comparing with a version that does not exist is NOT_FOUND; comparing two versions compares their contents", async () => {
    const { workflowId } = await workflowWithVersion();
    const missing = await api!.admin.execute(Compare, { workflowId, from: 1, to: 7 });
    expect(missing.errors?.map((error) => error.extensions?.["code"])).toEqual(["NOT_FOUND"]);
    const same = await api!.admin.request(Compare, { workflowId, from: 1, to: 1 });
    expect(same.compareWorkflowVersions.identical).toBe(true);
  });

  test("a chosen version exports as it was published, and importing it with publish starts a workflow at version 1 with the same hash", async () => {
    const { workflowId, version } = await workflowWithVersion();
    expect((await api!.admin.request(AddGeneration, { workflowId, id: "g2" })).addNode.errors).toEqual([]);
    const { exportWorkflow } = await api!.admin.request(Export, { id: workflowId, version: 1 });
    expect(JSON.parse(exportWorkflow!).nodes.map((node: { id: string }) => node.id)).toEqual(["in", "g1", "v1", "out"]);
    const draft = await api!.admin.request(Export, { id: workflowId });
    expect(JSON.parse(draft.exportWorkflow!).nodes.map((node: { id: string }) => node.id)).toContain("g2");
    expect((await api!.admin.request(Export, { id: workflowId, version: 9 })).exportWorkflow).toBeNull();

    const { importWorkflow } = await api!.admin.request(ImportPublished, { document: exportWorkflow!, note: "copied from v1" });
    expect(importWorkflow.errors).toEqual([]);
    expect(importWorkflow.workflow!.publishedVersion).toEqual({ number: 1, note: "copied from v1", contentHash: version.contentHash });
  });

  test("publishes racing edits get consecutive numbers, and each version holds exactly the graph of one edit", async () => {
    const { workflowId } = await workflowWithVersion();
    // Ten attribute edits of g1 (params.step = k) and ten publishes, all at once.
    const edits = Array.from({ length: 10 }, (_, k) =>
      api!.admin.request(SetStep, { workflowId, step: k }).then((data) => {
        expect(data.updateNode.errors).toEqual([]);
        return [data.updateNode.workflow!.version, k] as const;
      }),
    );
    const publishes = Array.from({ length: 10 }, (_, k) => api!.admin.request(Publish, { id: workflowId, note: `race ${k}` }));
    const [stepAt, published] = await Promise.all([Promise.all(edits), Promise.all(publishes)]);
    for (const result of published) expect(result.publishWorkflow.errors).toEqual([]);
    const steps = new Map<number, number>(stepAt);
    const rows = await suite.db().prisma.workflowVersion.findMany({ where: { workflowId }, orderBy: { number: "asc" } });
    expect(rows.map((row) => row.number)).toEqual(Array.from({ length: 11 }, (_, k) => k + 1));
    for (const [index, row] of rows.entries()) {
      if (index > 0) expect(row.editVersion).toBeGreaterThanOrEqual(rows[index - 1]!.editVersion);
      const g1 = (row.document as { nodes: { id: string; params?: { step?: number } }[] }).nodes.find((node) => node.id === "g1");
      expect(g1?.params?.step).toBe(steps.get(row.editVersion));
      expect(row.contentHash).toBe(contentHash(row.document));
    }
  });

  test("ten publishes at once get the numbers 2..11 exactly once, and their edit counters never go back", async () => {
    const { workflowId } = await workflowWithVersion();
    const results = await Promise.all(Array.from({ length: 10 }, (_, k) => api!.admin.request(Publish, { id: workflowId, note: `n${k}` })));
    for (const result of results) expect(result.publishWorkflow.errors).toEqual([]);
    const numbers = results.map((result) => result.publishWorkflow.version!.number).sort((a, b) => a - b);
    expect(numbers).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const rows = await suite.db().prisma.workflowVersion.findMany({ where: { workflowId }, orderBy: { number: "asc" } });
    expect(rows.map((row) => row.number)).toEqual(Array.from({ length: 11 }, (_, k) => k + 1));
  });
});
