import { parsePreparedRun } from "@weft/engine";
import { afterEach, expect, test } from "vitest";
import { describeEachDatabase } from "../../testing/database.js";
import { startTestApp, seedWorkflow, type TestApp } from "../../testing/app.js";
import { AddNode, CancelRun, RunDetail, RunEvents, Runs, RunStatusChanged, RunWorkflow } from "../../testing/operations.js";
import { arrows, fanOut } from "../../testing/workflows.js";


const seqs = (events: readonly { seq: number }[]) => events.map((event) => event.seq);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

describeEachDatabase("runs over HTTP and WebSocket", (suite) => {
  let api: TestApp | undefined;
  const start = async (env: Parameters<typeof startTestApp>[1] = {}) => (api = await startTestApp(suite.db(), env));
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  async function startRun(workflowId: string, input?: Record<string, unknown>) {
    const { runWorkflow } = await api!.admin.request(RunWorkflow, { workflowId, input });
    expect(runWorkflow.errors).toEqual([]);
    return runWorkflow.run!;
  }

  function follow(runId: string, afterSeq = 0) {
    const ws = api!.admin.ws();
    const collected = api!.admin.subscribe(ws, RunEvents, { runId, afterSeq });
    return { collected, ws, events: () => collected.items.map((item) => item.runEvents) };
  }

  test("a run is returned QUEUED at once and streamed to the end over WebSocket, matching what was stored", async () => {
    // in ──▶ g1 (echo) ──▶ v1 (echo) ──▶ out
    await start();
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->v1->out"]));
    const run = await startRun(workflowId, { inputs: [{ nodeId: "in", content: "hello weft" }] });
    expect(run.status).toBe("QUEUED");

    const stream = follow(run.id);
    await stream.collected.ended;
    await stream.ws.dispose();
    const events = stream.events();
    expect(stream.collected.failure).toBeNull();
    expect(seqs(events)).toEqual(range(1, events.length));
    expect(events[0]!.type).toBe("RUN_STARTED");
    expect(events.at(-1)).toMatchObject({ type: "RUN_COMPLETED", output: "hello weft" });
    expect(events.filter((event) => event.type === "NODE_COMPLETED").map((event) => event.nodeId)).toEqual(["in", "g1", "v1", "out"]);

    const { run: stored } = await api!.admin.request(RunDetail, { id: run.id });
    expect(stored!.status).toBe("COMPLETED");
    expect(stored!.result).toBe("hello weft");
    expect(stored!.lastSeq).toBe(events.length);
    expect(stored!.totalTokens).toBeGreaterThan(0);
    expect(stored!.events.map((event) => [event.seq, event.type, event.nodeId])).toEqual(
      events.map((event) => [event.seq, event.type, event.nodeId]),
    );
    expect(stored!.nodeRuns.every((nodeRun) => nodeRun.status === "COMPLETED")).toBe(true);
    // The graph as executed, typed, and the nodes the run started with.
    expect(stored!.nodes.map((node) => [node.id, node.type, node.model])).toEqual([
      ["in", "input", null],
      ["g1", "generation", "echo"],
      ["v1", "validation", "echo"],
      ["out", "output", null],
    ]);
    expect(stored!.edges.map((edge) => [edge.source, edge.target, edge.order])).toEqual([
      ["in", "g1", 1],
      ["g1", "v1", 2],
      ["v1", "out", 3],
    ]);
    expect(stored!.events[0]!.nodeIds).toEqual(["in", "g1", "v1", "out"]);
    const row = await suite.db().prisma.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(row).toMatchObject({ versionId: null, versionNumber: null });
    // The snapshot is the engine's prepared run, which the worker executed as it is.
    const prepared = parsePreparedRun(row.snapshot);
    expect(prepared.workflow.nodes.map((node) => node.id)).toEqual(["in", "g1", "v1", "out"]);
    expect(prepared).toMatchObject({ inputs: { in: "hello weft" }, settings: { topK: expect.any(Number), streamTokens: false } });
  });

  test("subscribers joining while the run emits each get every event exactly once", async () => {
    // in ──▶ g1..g30 ──▶ e1 ──▶ out   (many events in quick succession)
    await start();
    const workflowId = await seedWorkflow(suite.db(), fanOut(30, { params: { delayMs: 20 } }));
    const run = await startRun(workflowId);
    const late = [] as ReturnType<typeof follow>[];
    for (let k = 0; k < 6; k += 1) {
      late.push(follow(run.id));
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    await Promise.all(late.map((stream) => stream.collected.ended));
    const { run: stored } = await api!.admin.request(RunDetail, { id: run.id });
    expect(stored!.status).toBe("COMPLETED");
    for (const stream of late) {
      expect(seqs(stream.events())).toEqual(range(1, stored!.lastSeq));
      await stream.ws.dispose();
    }
  });

  test("a client that drops mid-run and reconnects with the last seq it saw loses nothing and sees nothing twice", async () => {
    // in ──▶ g1 ──▶ v1 ──▶ v2 ──▶ v3 ──▶ v4 ──▶ out   (each model node waits 100 ms)
    await start();
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->v1->v2->v3->v4->out"], { params: { delayMs: 100 } }));
    const run = await startRun(workflowId);
    const first = follow(run.id);
    await first.collected.until((items) => items.some((item) => item.runEvents.type === "NODE_COMPLETED" && item.runEvents.nodeId === "g1"));
    first.collected.dispose();
    await first.ws.dispose();
    const seen = first.events();
    expect(seen.some((event) => event.type === "RUN_COMPLETED")).toBe(false);

    const resumed = follow(run.id, seen.at(-1)!.seq);
    await resumed.collected.ended;
    await resumed.ws.dispose();
    const { run: stored } = await api!.admin.request(RunDetail, { id: run.id });
    expect(seqs([...seen, ...resumed.events()])).toEqual(range(1, stored!.lastSeq));
    expect(resumed.events().at(-1)!.type).toBe("RUN_COMPLETED");
  });

  test("subscribing after the run ended replays the stored events and completes; afterSeq at the end completes at once", async () => {
    await start();
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const run = await startRun(workflowId);
    const live = follow(run.id);
    await live.collected.ended;
    await live.ws.dispose();
    const total = live.events().length;

    const replay = follow(run.id, 2);
    await replay.collected.ended;
    expect(seqs(replay.events())).toEqual(range(3, total));
    const nothing = follow(run.id, total);
    await nothing.collected.ended;
    expect(nothing.events()).toEqual([]);
    await Promise.all([replay.ws.dispose(), nothing.ws.dispose()]);
  });

  test("following a run that does not exist, or from a negative seq, is refused with a code", async () => {
    await start();
    const codes = async (runId: string, afterSeq: number) => {
      const stream = follow(runId, afterSeq);
      await stream.collected.ended;
      await stream.ws.dispose();
      const errors = [...stream.collected.errors, ...(Array.isArray(stream.collected.failure) ? stream.collected.failure : [])];
      return (errors as { extensions?: Record<string, unknown> }[]).map((error) => error.extensions?.["code"]);
    };
    expect(await codes("00000000-0000-0000-0000-000000000000", 0)).toEqual(["NOT_FOUND"]);
    const run = await startRun(await seedWorkflow(suite.db(), arrows(["in->g1->out"])));
    expect(await codes(run.id, -1)).toEqual(["BAD_USER_INPUT"]);
  });

  test("many runWorkflow calls on one workflow at once all start", async () => {
    await start();
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"], { params: { delayMs: 100 } }));
    const results = await Promise.all(range(1, 8).map(() => api!.admin.request(RunWorkflow, { workflowId })));
    for (const result of results) expect(result.runWorkflow.errors).toEqual([]);
    expect(await suite.db().prisma.run.count({ where: { workflowId } })).toBe(8);
  });

  test("an edit while a run of the draft is active is refused and changes nothing; after the run ends it is accepted", async () => {
    await start();
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"], { params: { delayMs: 60_000 } }));
    const run = await startRun(workflowId);
    const { addNode } = await api!.admin.request(AddNode, { workflowId, input: { type: "input", id: "in2", content: "x" } });
    expect(addNode.errors.map((error) => error.code)).toEqual(["LOCKED_WHILE_RUNNING"]);
    expect(await suite.db().prisma.workflowNode.count({ where: { workflowId } })).toBe(3);

    await api!.admin.request(CancelRun, { id: run.id });
    const after = await api!.admin.request(AddNode, { workflowId, input: { type: "input", id: "in2", content: "x" } });
    expect(after.addNode.errors).toEqual([]);
  });

  test("cancelRun aborts the in-flight model call, ends the run CANCELLED, frees the workflow, and is a user error the second time", async () => {
    // in ──▶ g1 (echo, waits 60 s unless aborted) ──▶ out
    await start();
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"], { params: { delayMs: 60_000 } }));
    const run = await startRun(workflowId);
    const stream = follow(run.id);
    await stream.collected.until((items) => items.some((item) => item.runEvents.type === "NODE_STARTED" && item.runEvents.nodeId === "g1"));

    const { cancelRun } = await api!.admin.request(CancelRun, { id: run.id });
    expect(cancelRun.errors).toEqual([]);
    expect(cancelRun.run!.status).toBe("CANCELLED");
    expect(cancelRun.run!.error).toEqual({ code: "RUN_CANCELLED", message: "cancelled by a client" });
    await stream.collected.ended;
    await stream.ws.dispose();
    const events = stream.events();
    expect(events.at(-1)!.type).toBe("RUN_CANCELLED");
    expect(events.find((event) => event.nodeId === "g1" && event.type === "NODE_FAILED")?.error?.code).toBe("RUN_CANCELLED");
    expect(seqs(events)).toEqual(range(1, events.length));
    const { run: cancelled } = await api!.admin.request(RunDetail, { id: run.id });
    expect(cancelled!.events.filter((event) => event.reason !== null).map((event) => [event.type, event.nodeId, event.reason])).toEqual([
      ["NODE_SKIPPED", "out", "RUN_CANCELLED"],
      ["RUN_CANCELLED", null, "cancelled by a client"],
    ]);

    const again = await api!.admin.request(CancelRun, { id: run.id });
    expect(again.cancelRun.errors.map((error) => error.code)).toEqual(["CONFLICT"]);
    const next = await api!.admin.request(RunWorkflow, { workflowId });
    expect(next.runWorkflow.errors).toEqual([]);
    await api!.admin.request(CancelRun, { id: next.runWorkflow.run!.id });
  });

  test("a run still waiting in the queue is cancelled without ever starting, and its stream ends", async () => {
    await start({ env: { WEFT_PROCESS_CONCURRENCY: "1" } });
    const busy = await seedWorkflow(suite.db(), arrows(["in->g1->out"], { params: { delayMs: 60_000 } }));
    const waiting = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const busyRun = await startRun(busy);
    const queuedRun = await startRun(waiting);
    const stream = follow(queuedRun.id);

    const { cancelRun } = await api!.admin.request(CancelRun, { id: queuedRun.id });
    expect(cancelRun.run!.status).toBe("CANCELLED");
    await stream.collected.ended;
    await stream.ws.dispose();
    expect(stream.events().map((event) => event.type)).toEqual(["RUN_CANCELLED"]);
    const nodeRuns = await suite.db().prisma.nodeRun.findMany({ where: { runId: queuedRun.id } });
    expect(nodeRuns.every((nodeRun) => nodeRun.status === "SKIPPED")).toBe(true);
    await api!.admin.request(CancelRun, { id: busyRun.id });
  });

  test("a run is refused with every rule violation at once, and nothing is stored", async () => {
    //  in ──▶ g1 (provider "nowhere") ──▶ out
    //  in ──▶ g2 (no post-node)
    await start();
    const workflow = arrows(["in->g1->out", "in->g2"], { nodes: { g1: { provider: "nowhere", model: "x" } } });
    const workflowId = await seedWorkflow(suite.db(), workflow);
    const { runWorkflow } = await api!.admin.request(RunWorkflow, { workflowId });
    expect(runWorkflow.run).toBeNull();
    const byCode = Object.fromEntries(runWorkflow.errors.map((error) => [error.code, error.nodeIds]));
    expect(byCode).toMatchObject({ MODEL_UNAVAILABLE: ["g1"], MISSING_POST: ["g2"] });
    expect(await suite.db().prisma.run.count()).toBe(0);
  });

  test("bad run input is refused with a code and a path, and nothing is stored", async () => {
    await start();
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const cases: [Record<string, unknown> | undefined, string, string, string][] = [
      [{ inputs: [{ nodeId: "in", content: "x".repeat(1_000_001) }] }, workflowId, "LIMIT_EXCEEDED", "input.inputs.0.content"],
      [{ inputs: [{ nodeId: "g1", content: "x" }] }, workflowId, "VALIDATION_FAILED", "input.inputs.0.nodeId"],
      [{ inputs: [{ nodeId: "in", content: "a" }, { nodeId: "in", content: "b" }] }, workflowId, "VALIDATION_FAILED", "input.inputs.1.nodeId"],
      [{ inputs: [{ nodeId: "in", content: "a" }, { nodeId: "7", content: "b" }] }, workflowId, "VALIDATION_FAILED", "input.inputs.1.nodeId"],
      [{ knowledgeBase: "no-such-kb" }, workflowId, "NOT_FOUND", "input.knowledgeBase"],
      [{ prompts: { generation: "p".repeat(200_001) } }, workflowId, "LIMIT_EXCEEDED", "input.prompts.generation"],
      [undefined, "00000000-0000-0000-0000-000000000000", "NOT_FOUND", "workflowId"],
    ];
    for (const [input, id, code, path] of cases) {
      const { runWorkflow } = await api!.admin.request(RunWorkflow, { workflowId: id, input });
      expect(runWorkflow.run, code).toBeNull();
      expect(runWorkflow.errors.map((error) => [error.code, error.path?.join(".")])).toContainEqual([code, path]);
    }
    expect(await suite.db().prisma.run.count()).toBe(0);
    expect(await suite.db().prisma.nodeRun.count()).toBe(0);
  });

  test("a failing node fails the run, skips what depends on it and keeps the other outputs; a flaky model is retried", async () => {
    //  in ──▶ g1 (echo) ──────────────▶ e1 ──▶ out
    //  in ──▶ g2 (invalid-json) ──────▲
    //  in ──▶ g3 (flaky: fails twice) ▲
    await start();
    const workflow = arrows(["in->g1->e1->out", "in->g2->e1", "in->g3->e1"], {
      nodes: { g2: { model: "invalid-json" }, g3: { model: "flaky" } },
    });
    const run = await startRun(await seedWorkflow(suite.db(), workflow));
    const stream = follow(run.id);
    await stream.collected.ended;
    await stream.ws.dispose();
    const { run: stored } = await api!.admin.request(RunDetail, { id: run.id });
    expect(stored!.status).toBe("FAILED");
    const status = Object.fromEntries(stored!.nodeRuns.map((nodeRun) => [nodeRun.nodeId, nodeRun.status]));
    expect(status).toEqual({ in: "COMPLETED", g1: "COMPLETED", g2: "FAILED", g3: "COMPLETED", e1: "SKIPPED", out: "SKIPPED" });
    expect(stored!.nodeRuns.find((nodeRun) => nodeRun.nodeId === "g3")!.retries).toBe(2);
    expect(stored!.nodeRuns.find((nodeRun) => nodeRun.nodeId === "g2")!.error?.code).toBeTruthy();
    expect(stored!.nodeRuns.find((nodeRun) => nodeRun.nodeId === "g1")!.output).toBe("content of in");
    expect(stream.events().at(-1)!.type).toBe("RUN_FAILED");
  });

  test("runs are listed newest first with the workflow name they ran under, filtered by workflow, status and time, page by page", async () => {
    await start();
    const a = await seedWorkflow(suite.db(), arrows(["in->g1->out"], { name: "alpha" }));
    const b = await seedWorkflow(suite.db(), arrows(["in->g1->out"], { name: "beta", nodes: { g1: { model: "invalid-json" } } }));
    const ids: string[] = [];
    for (const workflowId of [a, b, a]) {
      const run = await startRun(workflowId);
      const stream = follow(run.id);
      await stream.collected.ended;
      await stream.ws.dispose();
      ids.push(run.id);
    }
    const all = await api!.admin.request(Runs, { first: 2 });
    expect(all.runs.totalCount).toBe(3);
    expect(all.runs.edges.map((edge) => edge.node.id)).toEqual([ids[2], ids[1]]);
    const rest = await api!.admin.request(Runs, { first: 2, after: all.runs.pageInfo.endCursor });
    expect(rest.runs.edges.map((edge) => edge.node.id)).toEqual([ids[0]]);
    expect(rest.runs.pageInfo.hasNextPage).toBe(false);
    // The name comes from each run's snapshot: renaming the workflow later does not rewrite history.
    await suite.db().prisma.workflow.update({ where: { id: a }, data: { name: "alpha renamed" } });
    const named = await api!.admin.request(Runs, {});
    expect(named.runs.edges.map((edge) => edge.node.workflowName)).toEqual(["alpha", "beta", "alpha"]);

    expect((await api!.admin.request(Runs, { workflowId: a })).runs.totalCount).toBe(2);
    expect((await api!.admin.request(Runs, { status: ["FAILED"] })).runs.edges.map((edge) => edge.node.id)).toEqual([ids[1]]);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await api!.admin.request(Runs, { createdAfter: future })).runs.totalCount).toBe(0);
    expect((await api!.admin.request(Runs, { createdBefore: future })).runs.totalCount).toBe(3);
    const bad = await api!.admin.execute(Runs, { first: 0 });
    expect(bad.errors[0]?.extensions?.["code"]).toBe("BAD_USER_INPUT");
  });

  test("runStatusChanged tells a dashboard every status a workflow's run goes through", async () => {
    await start();
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const other = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const ws = api!.admin.ws({ lazy: false });
    const dashboard = api!.admin.subscribe(ws, RunStatusChanged, { workflowId });
    // graphql-ws does not acknowledge a subscription: run the workflow until the dashboard hears of it.
    while (dashboard.items.length === 0) {
      const warmUp = follow((await startRun(workflowId)).id);
      await warmUp.collected.ended;
      await warmUp.ws.dispose();
    }
    const ignored = await startRun(other);
    const run = await startRun(workflowId);
    await dashboard.until((items) => items.some((item) => item.runStatusChanged.runId === run.id && item.runStatusChanged.status === "COMPLETED"));
    dashboard.dispose();
    await ws.dispose();
    expect(dashboard.items.map((item) => item.runStatusChanged.runId)).not.toContain(ignored.id);
    const ofRun = dashboard.items.filter((item) => item.runStatusChanged.runId === run.id);
    expect(ofRun.map((item) => item.runStatusChanged.status)).toEqual(["QUEUED", "RUNNING", "COMPLETED"]);
  });

  test("closing the server cancels active runs, so none stays locked", async () => {
    await start();
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"], { params: { delayMs: 60_000 } }));
    const run = await startRun(workflowId);
    const stream = follow(run.id);
    await stream.collected.until((items) => items.some((item) => item.runEvents.nodeId === "g1"));
    await api!.close();
    api = undefined;
    await stream.collected.ended;
    const row = await suite.db().prisma.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(row).toMatchObject({ status: "CANCELLED", error: { code: "RUN_CANCELLED", message: "the server is shutting down" } });
    const cancelled = await suite.db().prisma.runEvent.findFirstOrThrow({ where: { runId: run.id, type: "RUN_CANCELLED" } });
    expect(cancelled.payload).toMatchObject({ reason: "the server is shutting down" });
  });

  test("runs left QUEUED or RUNNING by a crash are failed at the next start, their locks cleared and their streams ended with every started node closed", async () => {
    const db = suite.db();
    const workflowId = await seedWorkflow(db, arrows(["in->g1->out"]));
    const other = await seedWorkflow(db, arrows(["in->g1->out"]));
    const snapshot = { version: 1 };
    const running = await db.prisma.run.create({
      data: { workflowId, status: "RUNNING", request: {}, snapshot, lastSeq: 2, startedAt: new Date() },
    });
    await db.prisma.runEvent.createMany({
      data: [
        { runId: running.id, seq: 1, type: "RUN_STARTED", payload: { nodeIds: ["in", "g1", "out"] }, at: new Date() },
        { runId: running.id, seq: 2, type: "NODE_STARTED", nodeKey: "in", payload: { nodeId: "in" }, at: new Date() },
      ],
    });
    await db.prisma.nodeRun.createMany({
      data: [
        { runId: running.id, nodeKey: "in", nodeType: "input", status: "RUNNING" },
        { runId: running.id, nodeKey: "g1", nodeType: "generation" },
      ],
    });
    const queued = await db.prisma.run.create({ data: { workflowId: other, status: "QUEUED", request: {}, snapshot } });

    await start();
    for (const id of [running.id, queued.id]) {
      const row = await db.prisma.run.findUniqueOrThrow({ where: { id } });
      expect(row).toMatchObject({ status: "FAILED", error: { code: "RUN_INTERRUPTED" } });
    }
    const stream = follow(running.id);
    await stream.collected.ended;
    await stream.ws.dispose();
    // The node that had started fails, the one that had not is skipped, then the run fails: gapless.
    expect(stream.events().map((event) => [event.seq, event.type, event.nodeId])).toEqual([
      [1, "RUN_STARTED", null],
      [2, "NODE_STARTED", "in"],
      [3, "NODE_FAILED", "in"],
      [4, "NODE_SKIPPED", "g1"],
      [5, "RUN_FAILED", null],
    ]);
    const closing = await db.prisma.runEvent.findMany({ where: { runId: running.id, seq: { gte: 3 } }, orderBy: { seq: "asc" } });
    expect(closing.map((event) => event.payload)).toMatchObject([
      { nodeId: "in", error: { code: "RUN_INTERRUPTED" } },
      { nodeId: "g1", reason: "RUN_INTERRUPTED", blockedBy: null },
      { error: { code: "RUN_INTERRUPTED" }, failedNodeIds: ["in"] },
    ]);
    expect((await db.prisma.run.findUniqueOrThrow({ where: { id: running.id } })).lastSeq).toBe(5);
    const nodeRuns = await db.prisma.nodeRun.findMany({ where: { runId: running.id }, orderBy: { nodeKey: "asc" } });
    expect(nodeRuns.map((nodeRun) => [nodeRun.nodeKey, nodeRun.status])).toEqual([
      ["g1", "SKIPPED"],
      ["in", "FAILED"],
    ]);
    const again = await api!.admin.request(RunWorkflow, { workflowId });
    expect(again.runWorkflow.errors).toEqual([]);
  });
});

