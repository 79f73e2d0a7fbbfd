import { afterEach, expect, test } from "vitest";
import { seedWorkflow, startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase, type TestDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";
import { CancelRun, RunDetail, RunWorkflow } from "../../testing/operations.js";
import { arrows } from "../../testing/workflows.js";
import { WORKFLOW_INPUT_LIMITS } from "./workflow-input.limits.js";

/**
 * Node and edge edits through the real server on both databases: every edit-time rule refused with
 * its code, bad input refused without a trace, LOCKED_WHILE_RUNNING during a run, concurrent edits
 * applied one after another.
 */

const AddNode = graphql(`
  mutation GraphAddNode($workflowId: ID!, $input: AddNodeInput!) {
    addNode(workflowId: $workflowId, input: $input) {
      node { id type content provider model params prompt position { x y } }
      workflow { version }
      errors { code message nodeIds edgeIds path }
    }
  }
`);

const UpdateNode = graphql(`
  mutation GraphUpdateNode($workflowId: ID!, $nodeId: ID!, $input: UpdateNodeInput!) {
    updateNode(workflowId: $workflowId, nodeId: $nodeId, input: $input) {
      node { id type content provider model params prompt position { x y } }
      errors { code message nodeIds path }
    }
  }
`);

const MoveNodes = graphql(`
  mutation GraphMoveNodes($workflowId: ID!, $moves: [NodeMoveInput!]!) {
    moveNodes(workflowId: $workflowId, moves: $moves) { workflow { version nodes { id position { x y } } } errors { code nodeIds path } }
  }
`);

const RemoveNode = graphql(`
  mutation GraphRemoveNode($workflowId: ID!, $nodeId: ID!) {
    removeNode(workflowId: $workflowId, nodeId: $nodeId) { removedNodeId removedEdgeIds errors { code message nodeIds path } }
  }
`);

const AddEdge = graphql(`
  mutation GraphAddEdge($workflowId: ID!, $source: ID!, $target: ID!) {
    addEdge(workflowId: $workflowId, source: $source, target: $target) {
      edge { id source target order }
      workflow { version edges { id } }
      errors { code message nodeIds edgeIds path }
    }
  }
`);

const RemoveEdge = graphql(`
  mutation GraphRemoveEdge($workflowId: ID!, $edgeId: ID!) {
    removeEdge(workflowId: $workflowId, edgeId: $edgeId) { removedEdgeId errors { code message edgeIds path } }
  }
`);

const SettingsAndDelete = graphql(`
  mutation GraphSettingsAndDelete($id: ID!) {
    updateWorkflow(id: $id, input: { outputFormat: "changed during the run" }) { workflow { outputFormat } errors { code } }
    deleteWorkflow(id: $id) { deletedWorkflowId errors { code } }
  }
`);

const Graph = graphql(`
  query GraphOf($id: ID!) { workflow(id: $id) { version activeRunId lastRun { id status } nodes { id } edges { id source target order } } }
`);

async function snapshot(db: TestDatabase) {
  const [workflows, nodes, edges] = await Promise.all([
    db.prisma.workflow.findMany({ orderBy: { id: "asc" } }),
    db.prisma.workflowNode.findMany({ orderBy: [{ workflowId: "asc" }, { key: "asc" }] }),
    db.prisma.workflowEdge.findMany({ orderBy: [{ workflowId: "asc" }, { key: "asc" }] }),
  ]);
  return { workflows, nodes, edges };
}

type Payload = { errors: { code: string; path?: readonly string[] | null }[] };

describeEachDatabase("node and edge edits through the API", (suite) => {
  let api: TestApp | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });
  const start = async () => (api = await startTestApp(suite.db()));
  const first = (data: object) => Object.values(data)[0] as Payload;

  test("builds a graph edit by edit, with server-chosen ids and edges ordered by creation", async () => {
    // in ──▶ generation-1 ──▶ out    (after removing in ──▶ out)
    await start();
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->out"]));
    const added = (await api!.admin.request(AddNode, {
      workflowId,
      input: { type: "generation", provider: "offline", model: "echo", params: { temperature: 0.1 }, prompt: "{input_data}", position: { x: 10, y: 20 } },
    })).addNode;
    expect(added.errors).toEqual([]);
    expect(added.node).toMatchObject({ id: "generation-1", type: "generation", content: null, params: { temperature: 0.1 }, position: { x: 10, y: 20 } });
    expect((await api!.admin.request(RemoveEdge, { workflowId, edgeId: "e1" })).removeEdge).toEqual({ removedEdgeId: "e1", errors: [] });
    const a = (await api!.admin.request(AddEdge, { workflowId, source: "in", target: "generation-1" })).addEdge;
    const b = (await api!.admin.request(AddEdge, { workflowId, source: "generation-1", target: "out" })).addEdge;
    expect([a.errors, b.errors]).toEqual([[], []]);
    // e1 was deleted: its id is never given to another edge, so a client still holding it cannot hit a new one.
    expect([a.edge!.id, b.edge!.id]).toEqual(["e2", "e3"]);
    expect((await api!.admin.request(RemoveEdge, { workflowId, edgeId: "e3" })).removeEdge.errors).toEqual([]);
    const c = (await api!.admin.request(AddEdge, { workflowId, source: "generation-1", target: "out" })).addEdge;
    expect(c.edge!.id).toBe("e4");
    expect(b.edge!.order).toBeGreaterThan(a.edge!.order);
    const { workflow } = await api!.admin.request(Graph, { id: workflowId });
    expect(workflow!.edges.map((edge) => [edge.source, edge.target])).toEqual([["in", "generation-1"], ["generation-1", "out"]]);
    expect(workflow!.version).toBe(7);
  });

  test("refuses every edit-time rule with its code and the ids to highlight, changing nothing", async () => {
    //  in ──▶ g1 ──▶ v1 ──▶ out        lone: e1, g2, v2 ──▶ e2
    await start();
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->v1->out", "e1", "g2", "v2->e2"]));
    const before = await snapshot(suite.db());
    const edge = async (source: string, target: string) =>
      (await api!.admin.request(AddEdge, { workflowId, source, target })).addEdge.errors;
    const codes = async (source: string, target: string) => (await edge(source, target)).map((error) => error.code);

    expect(await codes("g1", "in")).toContain("INPUT_HAS_PRE");
    expect(await codes("out", "e1")).toContain("OUTPUT_HAS_POST");
    expect(await codes("e1", "g2")).toEqual(["TYPE_PAIR_FORBIDDEN"]);
    expect(await codes("in", "v1")).toEqual(["MULTIPLE_PRE"]);
    expect(await codes("g1", "e1")).toEqual(["MULTIPLE_POST"]);
    expect(await codes("e1", "e1")).toEqual(["SELF_LOOP"]);
    expect(await codes("in", "g1")).toEqual(["DUPLICATE_EDGE"]);
    const cycle = await edge("e2", "v2");
    expect(cycle.map((error) => error.code)).toEqual(["CYCLE"]);
    expect((cycle[0] as { nodeIds?: string[] }).nodeIds?.sort()).toEqual(["e2", "v2"]);

    const removeInput = (await api!.admin.request(RemoveNode, { workflowId, nodeId: "in" })).removeNode;
    expect(removeInput.errors.map((error) => [error.code, error.nodeIds])).toEqual([["INPUT_REQUIRED", ["in"]]]);
    const removeOutput = (await api!.admin.request(RemoveNode, { workflowId, nodeId: "out" })).removeNode;
    expect(removeOutput.errors.map((error) => error.code)).toEqual(["OUTPUT_UNIQUE"]);
    const secondOutput = (await api!.admin.request(AddNode, { workflowId, input: { type: "output" } })).addNode;
    expect(secondOutput.errors.map((error) => [error.code, error.nodeIds])).toEqual([["OUTPUT_UNIQUE", ["out"]]]);
    const unknownType = (await api!.admin.request(AddNode, { workflowId, input: { type: "router" } })).addNode;
    expect(unknownType.errors.map((error) => error.code)).toEqual(["UNKNOWN_NODE_TYPE"]);

    expect(await snapshot(suite.db())).toEqual(before);
  });

  test("refuses bad input for every graph mutation and leaves the database unchanged", async () => {
    await start();
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const missing = "00000000-0000-4000-8000-000000000000";
    const before = await snapshot(suite.db());
    const deep = { a: { b: { c: { d: { e: { f: 1 } } } } } };
    const cases: [string, Promise<object>, string, string[] | null][] = [
      ["params too deep", api!.admin.request(AddNode, { workflowId, input: { type: "generation", params: deep } }), "LIMIT_EXCEEDED", null],
      ["model on a text node", api!.admin.request(AddNode, { workflowId, input: { type: "input", model: "echo" } }), "VALIDATION_FAILED", null],
      ["content too long", api!.admin.request(AddNode, { workflowId, input: { type: "input", content: "c".repeat(200_001) } }), "VALIDATION_FAILED", ["input", "content"]],
      ["id too long", api!.admin.request(AddNode, { workflowId, input: { type: "generation", id: "x".repeat(129) } }), "LIMIT_EXCEEDED", ["input", "id"]],
      ["id taken", api!.admin.request(AddNode, { workflowId, input: { type: "generation", id: "g1" } }), "CONFLICT", ["input", "id"]],
      ["far position", api!.admin.request(AddNode, { workflowId, input: { type: "generation", position: { x: 1e9, y: 0 } } }), "VALIDATION_FAILED", ["input", "position", "x"]],
      ["no such workflow", api!.admin.request(AddNode, { workflowId: missing, input: { type: "generation" } }), "NOT_FOUND", null],
      ["no such node", api!.admin.request(UpdateNode, { workflowId, nodeId: "zz", input: { content: "x" } }), "NOT_FOUND", ["nodeId"]],
      ["prompt on input", api!.admin.request(UpdateNode, { workflowId, nodeId: "in", input: { prompt: "x" } }), "VALIDATION_FAILED", null],
      ["move unknown", api!.admin.request(MoveNodes, { workflowId, moves: [{ id: "in", x: 1, y: 1 }, { id: "zz", x: 1, y: 1 }] }), "NOT_FOUND", ["moves"]],
      ["move twice", api!.admin.request(MoveNodes, { workflowId, moves: [{ id: "in", x: 1, y: 1 }, { id: "in", x: 2, y: 2 }] }), "VALIDATION_FAILED", ["moves", "1", "id"]],
      ["remove unknown", api!.admin.request(RemoveNode, { workflowId, nodeId: "zz" }), "NOT_FOUND", null],
      ["edge to nowhere", api!.admin.request(AddEdge, { workflowId, source: "in", target: "zz" }), "NOT_FOUND", null],
      ["empty source", api!.admin.request(AddEdge, { workflowId, source: "", target: "g1" }), "VALIDATION_FAILED", ["source"]],
      ["remove unknown edge", api!.admin.request(RemoveEdge, { workflowId, edgeId: "e99" }), "NOT_FOUND", ["edgeId"]],
    ];
    for (const [label, pending, code, path] of cases) {
      const payload = first(await pending);
      expect(payload.errors.map((error) => error.code), label).toEqual([code]);
      if (path) expect(payload.errors[0]!.path, label).toEqual(path);
    }
    expect(await snapshot(suite.db())).toEqual(before);
  });

  test("updates attributes with null clearing one, never the type, and saves positions in bulk", async () => {
    await start();
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"], { params: { temperature: 0.5 } }));
    const updated = (await api!.admin.request(UpdateNode, {
      workflowId,
      nodeId: "g1",
      input: { model: "flaky", params: null, prompt: "only {input_data}" },
    })).updateNode;
    expect(updated.errors).toEqual([]);
    expect(updated.node).toMatchObject({ type: "generation", provider: "offline", model: "flaky", params: null, prompt: "only {input_data}" });
    const moved = (await api!.admin.request(MoveNodes, { workflowId, moves: [{ id: "in", x: -5, y: 7.5 }, { id: "out", x: 300, y: 0 }] })).moveNodes;
    expect(moved.errors).toEqual([]);
    expect(moved.workflow!.nodes.map((node) => [node.id, node.position])).toEqual([
      ["in", { x: -5, y: 7.5 }],
      ["g1", { x: 0, y: 0 }],
      ["out", { x: 300, y: 0 }],
    ]);
  });

  test("removes a node together with its edges", async () => {
    // in ──▶ g1 ──▶ out   remove g1 → in and out remain, unconnected
    await start();
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const { removeNode } = await api!.admin.request(RemoveNode, { workflowId, nodeId: "g1" });
    expect(removeNode).toEqual({ removedNodeId: "g1", removedEdgeIds: ["e1", "e2"], errors: [] });
    const { workflow } = await api!.admin.request(Graph, { id: workflowId });
    expect(workflow!.nodes.map((node) => node.id)).toEqual(["in", "out"]);
    expect(workflow!.edges).toEqual([]);
  });

  test("refuses graph changes while a run is active, allows positions and settings, and unlocks when the run ends", async () => {
    // in ──▶ g1 (echo, waits 60 s) ──▶ out
    await start();
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"], { params: { delayMs: 60_000 } }));
    const { runWorkflow } = await api!.admin.request(RunWorkflow, { workflowId });
    expect(runWorkflow.errors).toEqual([]);
    const runId = runWorkflow.run!.id;
    expect((await api!.admin.request(Graph, { id: workflowId })).workflow!.activeRunId).toBe(runId);
    const before = await snapshot(suite.db());

    const refused = [
      await api!.admin.request(AddNode, { workflowId, input: { type: "generation" } }),
      await api!.admin.request(UpdateNode, { workflowId, nodeId: "g1", input: { model: "flaky" } }),
      await api!.admin.request(RemoveNode, { workflowId, nodeId: "g1" }),
      await api!.admin.request(AddEdge, { workflowId, source: "in", target: "out" }),
      await api!.admin.request(RemoveEdge, { workflowId, edgeId: "e1" }),
    ];
    for (const data of refused) expect(first(data).errors.map((error) => error.code)).toEqual(["LOCKED_WHILE_RUNNING"]);
    expect(await snapshot(suite.db())).toEqual(before);

    const moved = (await api!.admin.request(MoveNodes, { workflowId, moves: [{ id: "g1", x: 50, y: 50 }] })).moveNodes;
    expect(moved.errors).toEqual([]);
    const positionOnly = (await api!.admin.request(UpdateNode, { workflowId, nodeId: "g1", input: { position: { x: 60, y: 60 } } })).updateNode;
    expect(positionOnly.errors).toEqual([]);
    const settings = await api!.admin.request(SettingsAndDelete, { id: workflowId });
    expect(settings.updateWorkflow.errors).toEqual([]);
    expect(settings.deleteWorkflow.errors.map((error) => error.code)).toEqual(["LOCKED_WHILE_RUNNING"]);

    expect((await api!.admin.request(CancelRun, { id: runId })).cancelRun.errors).toEqual([]);
    let status = "RUNNING";
    while (status === "RUNNING" || status === "QUEUED") {
      await new Promise((resolve) => setTimeout(resolve, 25));
      status = (await api!.admin.request(RunDetail, { id: runId })).run!.status;
    }
    expect(status).toBe("CANCELLED");
    const ended = (await api!.admin.request(Graph, { id: workflowId })).workflow!;
    expect([ended.activeRunId, ended.lastRun]).toEqual([null, { id: runId, status: "CANCELLED" }]);
    const afterRun = (await api!.admin.request(AddEdge, { workflowId, source: "in", target: "g1" })).addEdge;
    expect(afterRun.errors.map((error) => error.code)).toContain("DUPLICATE_EDGE");
    expect(afterRun.errors.map((error) => error.code)).not.toContain("LOCKED_WHILE_RUNNING");
    expect((await api!.admin.request(RemoveEdge, { workflowId, edgeId: "e1" })).removeEdge.errors).toEqual([]);
  });

  test("applies concurrent edits one after another: one of five racing pre-nodes wins and no version is lost", async () => {
    // in ──▶ g1..g5, each racing to become the one pre-node of v1
    await start();
    const specs = [1, 2, 3, 4, 5].map((k) => `in->g${k}`);
    const workflowId = await seedWorkflow(suite.db(), arrows([...specs, "v1", "out"]));
    const versionBefore = (await api!.admin.request(Graph, { id: workflowId })).workflow!.version;
    const racing = await Promise.all(
      [1, 2, 3, 4, 5].map((k) => api!.admin.request(AddEdge, { workflowId, source: `g${k}`, target: "v1" })),
    );
    const outcomes = racing.map((data) => data.addEdge.errors.map((error) => error.code).join(",") || "ok");
    expect(outcomes.filter((outcome) => outcome === "ok")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === "MULTIPLE_PRE")).toHaveLength(4);

    const adds = await Promise.all(
      Array.from({ length: 8 }, (_, k) => api!.admin.request(AddNode, { workflowId, input: { type: "ensemble", id: `x${k}` } })),
    );
    expect(adds.every((data) => data.addNode.errors.length === 0)).toBe(true);
    const { workflow } = await api!.admin.request(Graph, { id: workflowId });
    expect(workflow!.edges.filter((edge) => edge.target === "v1")).toHaveLength(1);
    expect(workflow!.version).toBe(versionBefore + 1 + 8);
  });

  test("enforces the node, edge and batch limits with LIMIT_EXCEEDED", async () => {
    // Both fixtures are stored before the first request: a long pause between requests lets an idle
    // keep-alive connection time out under the client's feet on a busy machine.
    // 2,000 nodes: in, out and 1,998 lone generation nodes.
    const full = arrows(["in->out"]);
    for (let k = 0; k < WORKFLOW_INPUT_LIMITS.maxNodes - 2; k += 1) full.nodes.push({ id: `g${k}`, type: "generation" });
    const fullId = await seedWorkflow(suite.db(), full);
    // 8,000 edges: 100 inputs each feeding the same 80 ensembles; an 81st ensemble waits for one more.
    const dense = arrows(["e80->out"]);
    for (let i = 0; i < 100; i += 1) dense.nodes.push({ id: `in${i}`, type: "input", content: "" });
    for (let j = 0; j < 81; j += 1) if (j !== 80) dense.nodes.push({ id: `e${j}`, type: "ensemble" });
    for (let i = 0; i < 100; i += 1) {
      for (let j = 0; j < 80; j += 1) dense.edges.push({ id: `x${i}-${j}`, source: `in${i}`, target: `e${j}` });
    }
    dense.edges = dense.edges.slice(0, WORKFLOW_INPUT_LIMITS.maxEdges);
    const denseId = await seedWorkflow(suite.db(), dense);
    await start();

    const oneMore = (await api!.admin.request(AddNode, { workflowId: fullId, input: { type: "generation" } })).addNode;
    expect(oneMore.errors.map((error) => error.code)).toEqual(["LIMIT_EXCEEDED"]);
    const moves = Array.from({ length: WORKFLOW_INPUT_LIMITS.maxMovedNodes + 1 }, (_, k) => ({ id: `g${k}`, x: 0, y: 0 }));
    const tooManyMoves = (await api!.admin.request(MoveNodes, { workflowId: fullId, moves })).moveNodes;
    expect(tooManyMoves.errors.map((error) => error.code)).toEqual(["LIMIT_EXCEEDED"]);
    const extraEdge = (await api!.admin.request(AddEdge, { workflowId: denseId, source: "in0", target: "e80" })).addEdge;
    expect(extraEdge.errors.map((error) => error.code)).toEqual(["LIMIT_EXCEEDED"]);
    expect(await suite.db().prisma.workflowEdge.count({ where: { workflowId: denseId } })).toBe(WORKFLOW_INPUT_LIMITS.maxEdges);
  }, 120_000);
});
