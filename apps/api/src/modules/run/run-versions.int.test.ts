import { afterEach, expect, test } from "vitest";
import { describeEachDatabase } from "../../testing/database.js";
import { startTestApp, seedWorkflow, type TestApp } from "../../testing/app.js";
import { graphql } from "../../testing/gql/index.js";
import { AddNode, CancelRun, RunDetail, RunEvents, RunWorkflow } from "../../testing/operations.js";
import { arrows } from "../../testing/workflows.js";

/**
 * Runs pinned to published versions, on both databases: many runs of one version at once while the
 * draft is edited, the draft lock that only runs of the draft hold, re-runs, and which version a run
 * executes when it names none.
 */

const Publish = graphql(`
  mutation RunVerPublish($id: ID!) { publishWorkflow(id: $id) { version { number } errors { code message } } }
`);

const Rerun = graphql(`
  mutation RunVerRerun($id: ID!) {
    rerunRun(id: $id) { run { ...RunFields rerunOf { id } } errors { code message path } }
  }
`);

const UpdateNode = graphql(`
  mutation RunVerUpdateNode($workflowId: ID!, $nodeId: ID!, $input: UpdateNodeInput!) {
    updateNode(workflowId: $workflowId, nodeId: $nodeId, input: $input) { errors { code message } }
  }
`);

const RemoveEdge = graphql(`
  mutation RunVerRemoveEdge($workflowId: ID!, $edgeId: ID!) { removeEdge(workflowId: $workflowId, edgeId: $edgeId) { errors { code message } } }
`);

const RunsOf = graphql(`
  query RunVerRuns($workflowId: ID!, $version: Int, $draft: Boolean) {
    runs(workflowId: $workflowId, version: $version, draft: $draft, first: 50) { totalCount edges { node { id version draft } } }
  }
`);

const Snapshot = graphql(`
  query RunVerSnapshot($id: ID!) { run(id: $id) { snapshot nodeRuns { nodeId status output } } }
`);

const Workflow = graphql(`
  query RunVerWorkflow($id: ID!) { workflow(id: $id) { activeRunId } }
`);

const DeleteWorkflow = graphql(`
  mutation RunVerDelete($id: ID!) { deleteWorkflow(id: $id) { deletedWorkflowId errors { code message } } }
`);

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

describeEachDatabase("runs of published versions", (suite) => {
  let api: TestApp | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  async function startRun(workflowId: string, input?: Record<string, unknown>) {
    const { runWorkflow } = await api!.admin.request(RunWorkflow, { workflowId, input });
    expect(runWorkflow.errors).toEqual([]);
    return runWorkflow.run!;
  }

  /** Every event of the run, once it has ended. */
  async function eventsOf(runId: string) {
    const ws = api!.admin.ws();
    const collected = api!.admin.subscribe(ws, RunEvents, { runId, afterSeq: 0 });
    await collected.ended;
    await ws.dispose();
    return collected.items.map((item) => item.runEvents);
  }

  async function publish(workflowId: string) {
    const { publishWorkflow } = await api!.admin.request(Publish, { id: workflowId });
    expect(publishWorkflow.errors).toEqual([]);
    return publishWorkflow.version!.number;
  }

  test("twenty runs of one published version at once all complete with their own events and node runs, while the graph is edited", async () => {
    // version 1:  in ──e1──▶ g1 ──e2──▶ v1 ──e3──▶ out   (each model node waits 150 ms)
    api = await startTestApp(suite.db(), { env: { WEFT_RATE_LIMIT_RUNS_PER_MINUTE: "0" } });
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->v1->out"], { params: { delayMs: 150 } }));
    expect(await publish(workflowId)).toBe(1);
    const runs = await Promise.all(range(1, 20).map((k) => startRun(workflowId, { inputs: [{ nodeId: "in", content: `question ${k}` }] })));
    expect(runs.every((run) => run.version === 1 && !run.draft)).toBe(true);

    // The draft changes while they run: none of these edits waits for them or is refused.
    // draft:      in ──e1──▶ g1 (flaky)    v1 ──e3──▶ out    in2
    const edits = [
      (await api.admin.request(UpdateNode, { workflowId, nodeId: "g1", input: { model: "flaky" } })).updateNode.errors,
      (await api.admin.request(RemoveEdge, { workflowId, edgeId: "e2" })).removeEdge.errors,
      (await api.admin.request(AddNode, { workflowId, input: { type: "input", id: "in2", content: "x" } })).addNode.errors,
    ];
    expect(edits).toEqual([[], [], []]);

    const streams = await Promise.all(runs.map((run) => eventsOf(run.id)));
    for (const [k, events] of streams.entries()) {
      expect(events.map((event) => event.seq)).toEqual(range(1, events.length));
      expect(events.every((event) => event.runId === runs[k]!.id)).toBe(true);
      expect(events.at(-1)).toMatchObject({ type: "RUN_COMPLETED", output: `question ${k + 1}` });
      const { run } = await api.admin.request(Snapshot, { id: runs[k]!.id });
      expect(run!.nodeRuns.map((nodeRun) => [nodeRun.nodeId, nodeRun.status])).toEqual([
        ["in", "COMPLETED"], ["g1", "COMPLETED"], ["v1", "COMPLETED"], ["out", "COMPLETED"],
      ]);
    }
    expect(await suite.db().prisma.runEvent.count()).toBe(streams.reduce((sum, events) => sum + events.length, 0));
  });

  test("a run of the draft still holds the graph: edits are refused with LOCKED_WHILE_RUNNING until it ends", async () => {
    api = await startTestApp(suite.db());
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"], { params: { delayMs: 60_000 } }));
    await publish(workflowId);
    const versionRun = await startRun(workflowId);
    expect((await api.admin.request(Workflow, { id: workflowId })).workflow!.activeRunId).toBeNull();
    const edit = await api.admin.request(UpdateNode, { workflowId, nodeId: "g1", input: { params: { delayMs: 60_000, edited: true } } });
    expect(edit.updateNode.errors).toEqual([]);

    const draftRun = await startRun(workflowId, { draft: true });
    expect([draftRun.version, draftRun.draft]).toEqual([null, true]);
    expect((await api.admin.request(Workflow, { id: workflowId })).workflow!.activeRunId).toBe(draftRun.id);
    const refused = await api.admin.request(AddNode, { workflowId, input: { type: "input", id: "in3" } });
    expect(refused.addNode.errors.map((error) => error.code)).toEqual(["LOCKED_WHILE_RUNNING"]);
    // Deleting the workflow waits for every active run, of any version.
    const deletion = await api.admin.request(DeleteWorkflow, { id: workflowId });
    expect(deletion.deleteWorkflow.errors.map((error) => error.code)).toEqual(["LOCKED_WHILE_RUNNING"]);

    await api.admin.request(CancelRun, { id: draftRun.id });
    expect((await api.admin.request(AddNode, { workflowId, input: { type: "input", id: "in3" } })).addNode.errors).toEqual([]);
    await api.admin.request(CancelRun, { id: versionRun.id });
    expect((await api.admin.request(DeleteWorkflow, { id: workflowId })).deleteWorkflow.errors).toEqual([]);
    expect([await suite.db().prisma.run.count(), await suite.db().prisma.workflowVersion.count()]).toEqual([0, 0]);
  });

  test("each run of the draft executes the draft as the last edit left it, and one refused for a broken draft starts once it is fixed", async () => {
    // in ──▶ g1 ──▶ out, edited between runs of its draft
    api = await startTestApp(suite.db());
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const g1Params = async (runId: string) => {
      await eventsOf(runId);
      const { run } = await api!.admin.request(Snapshot, { id: runId });
      const nodes = (run!.snapshot as { workflow: { nodes: { id: string; params?: unknown }[] } }).workflow.nodes;
      return nodes.find((node) => node.id === "g1")!.params;
    };
    expect(await g1Params((await startRun(workflowId, { draft: true })).id)).toBeUndefined();
    for (const marker of [1, 2]) {
      expect((await api.admin.request(UpdateNode, { workflowId, nodeId: "g1", input: { params: { marker } } })).updateNode.errors).toEqual([]);
      expect(await g1Params((await startRun(workflowId, { draft: true })).id)).toEqual({ marker });
    }
    expect((await api.admin.request(UpdateNode, { workflowId, nodeId: "g1", input: { model: "no-such-model" } })).updateNode.errors).toEqual([]);
    const refused = (await api.admin.request(RunWorkflow, { workflowId, input: { draft: true } })).runWorkflow;
    expect(refused.errors.map((error) => error.code)).toEqual(["MODEL_UNAVAILABLE"]);
    expect((await api.admin.request(UpdateNode, { workflowId, nodeId: "g1", input: { model: "echo" } })).updateNode.errors).toEqual([]);
    expect(await g1Params((await startRun(workflowId, { draft: true })).id)).toEqual({ marker: 2 });
    expect(await suite.db().prisma.run.count()).toBe(4);
  });

  test("a run of version 1 after the graph changed executes version 1's graph, and re-running it after another edit does too", async () => {
    // version 1:  in ──▶ g1 ──▶ out              draft:  in ──▶ g1 (invalid-json: fails) ──▶ out
    api = await startTestApp(suite.db());
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    await publish(workflowId);
    expect((await api.admin.request(UpdateNode, { workflowId, nodeId: "g1", input: { model: "invalid-json" } })).updateNode.errors).toEqual([]);
    await publish(workflowId);

    const first = await startRun(workflowId, { version: 1, inputs: [{ nodeId: "in", content: "pinned" }] });
    expect((await eventsOf(first.id)).at(-1)).toMatchObject({ type: "RUN_COMPLETED", output: "pinned" });
    const { run } = await api.admin.request(Snapshot, { id: first.id });
    expect(JSON.stringify(run!.snapshot)).toContain('"model":"echo"');

    expect((await api.admin.request(UpdateNode, { workflowId, nodeId: "g1", input: { model: "flaky" } })).updateNode.errors).toEqual([]);
    const { rerunRun } = await api.admin.request(Rerun, { id: first.id });
    expect(rerunRun.errors).toEqual([]);
    expect(rerunRun.run).toMatchObject({ version: 1, draft: false, rerunOf: { id: first.id } });
    expect((await eventsOf(rerunRun.run!.id)).at(-1)).toMatchObject({ type: "RUN_COMPLETED", output: "pinned" });
    const { run: stored } = await api.admin.request(RunDetail, { id: rerunRun.run!.id });
    expect(stored!.nodeRuns.find((nodeRun) => nodeRun.nodeId === "g1")).toMatchObject({ status: "COMPLETED", retries: 0 });
  });

  test("a run that names no version executes the latest published one, or the draft while none is published", async () => {
    api = await startTestApp(suite.db());
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const beforePublish = await startRun(workflowId);
    expect([beforePublish.version, beforePublish.draft]).toEqual([null, true]);
    await eventsOf(beforePublish.id);
    await publish(workflowId);
    await publish(workflowId);
    const latest = await startRun(workflowId);
    expect([latest.version, latest.draft]).toEqual([2, false]);
    await eventsOf(latest.id);
    const draft = await startRun(workflowId, { draft: true });
    await eventsOf(draft.id);

    const all = await api.admin.request(RunsOf, { workflowId });
    expect(all.runs.totalCount).toBe(3);
    expect((await api.admin.request(RunsOf, { workflowId, version: 2 })).runs.edges.map((edge) => edge.node.id)).toEqual([latest.id]);
    const drafts = await api.admin.request(RunsOf, { workflowId, draft: true });
    expect(drafts.runs.edges.map((edge) => edge.node.id)).toEqual([draft.id, beforePublish.id]);
    expect((await api.admin.request(RunsOf, { workflowId, draft: false })).runs.totalCount).toBe(1);
  });

  test("a run naming a version that does not exist, or both a version and the draft, is refused and stores nothing", async () => {
    api = await startTestApp(suite.db());
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const refusals = async (input: Record<string, unknown>) =>
      (await api!.admin.request(RunWorkflow, { workflowId, input })).runWorkflow.errors.map((error) => [error.code, error.path]);
    expect(await refusals({ version: 1 })).toEqual([["NOT_FOUND", ["input", "version"]]]);
    expect(await refusals({ version: 0 })).toEqual([["VALIDATION_FAILED", ["input", "version"]]]);
    await publish(workflowId);
    expect(await refusals({ version: 1, draft: true })).toEqual([["VALIDATION_FAILED", ["input", "draft"]]]);
    const unknownRun = await api.admin.request(Rerun, { id: "00000000-0000-0000-0000-000000000000" });
    expect(unknownRun.rerunRun.errors.map((error) => error.code)).toEqual(["NOT_FOUND"]);
    expect(await suite.db().prisma.run.count()).toBe(0);
  });
});
