import { randomUUID } from "node:crypto";
import type { NodeRunDetails, RunEvent } from "@weft/engine";
import { expect, test, vi } from "vitest";
import { PLANNED_MARK } from "../../db/planned-statements.js";
import type { RawQueryable } from "../../db/raw-sql.js";
import { InProcessEventBus, type EventBus, type RunEventMessage } from "../../pubsub.js";
import { describeEachDatabase, type TestDatabase } from "../../testing/database.js";
import { seedWorkflow } from "../../testing/app.js";
import { arrows } from "../../testing/workflows.js";
import { MAX_BATCH_EVENTS, RunEventRecorder } from "./run-event-recorder.js";
import { RunEventWriter } from "./run-event-writer.js";

type Draft = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, "seq" | "runId" | "at"> : never) : never;

/** The database as the writer sees it (its raw handle), counting its statements; `gate` holds a statement back, `failOn` fails one. */
function countingDb(raw: RawQueryable) {
  const counter = { statements: 0, failOn: 0, gate: null as Promise<void> | null };
  const db: Pick<RawQueryable, "query"> = {
    async query<Row>(sql: string, params?: readonly unknown[]) {
      counter.statements += 1;
      if (counter.statements === counter.failOn) throw new Error("disk full");
      if (counter.gate) await counter.gate;
      return raw.query<Row>(sql, params);
    },
  };
  return { db, counter };
}

const usage = { promptTokens: 3, completionTokens: 2, totalTokens: 5 };
const details = (at: string): NodeRunDetails => ({
  inputs: [], renderedPrompt: "p", context: [], store: null, rawReply: "r", provider: "offline", model: "echo",
  usage, retries: 0, startedAt: at, finishedAt: at,
});

/** What the engine emits for `in ──▶ g1 ──▶ v1 ──▶ out`: a description, then the completion, per model node. */
function chainEvents(): Draft[] {
  const at = new Date().toISOString();
  const node = (nodeId: string, nodeType: string, model: boolean): Draft[] => [
    { type: "NODE_STARTED", nodeId, nodeType, invocation: "" },
    ...(model ? [{ type: "NODE_DESCRIPTION" as const, nodeId, description: `${nodeId} done`, invocation: "" }] : []),
    { type: "NODE_COMPLETED", nodeId, description: `${nodeId} done`, output: nodeId, details: details(at), invocation: "" },
  ];
  return [
    { type: "RUN_STARTED", nodeIds: ["in", "g1", "v1", "out"] },
    ...node("in", "input", false),
    ...node("g1", "generation", true),
    ...node("v1", "validation", true),
    ...node("out", "output", false),
    { type: "RUN_COMPLETED", result: "out", outputs: { out: "out" }, usage: { promptTokens: 12, completionTokens: 8, totalTokens: 20 } },
  ];
}

const CHAIN_TYPES = new Map([["in", "input"], ["g1", "generation"], ["v1", "validation"], ["out", "output"]]);

const warning = (runId: string, seq: number): RunEvent => ({ type: "WARNING", code: "W", message: "m", seq, runId, at: new Date().toISOString() });

async function seedRun(database: TestDatabase): Promise<{ runId: string; workflowId: string }> {
  const workflowId = await seedWorkflow(database, arrows(["in->g1->v1->out"]));
  const run = await database.prisma.run.create({
    data: {
      workflowId, status: "QUEUED", request: {}, snapshot: {},
      nodeRuns: { create: ["in", "g1", "v1", "out"].map((nodeKey) => ({ nodeKey, nodeType: "x" })) },
    },
  });
  return { runId: run.id, workflowId };
}

/**
 * Hands events over one at a time, waiting for each `record` like the engine's event sink does. With
 * `pace`, it is awaited after each NODE_COMPLETED: the next node's model call outlasting the write.
 */
async function emitAll(record: RunEventRecorder["record"], runId: string, drafts: Draft[], pace?: () => Promise<void>): Promise<void> {
  for (const [index, draft] of drafts.entries()) {
    await record({ ...draft, seq: index + 1, runId, at: new Date().toISOString() } as RunEvent);
    if (pace && draft.type === "NODE_COMPLETED") await pace();
  }
}

describeEachDatabase("run event recorder", (suite) => {
  test("events emitted back to back share one statement, are published in seq order, each stored before it is published", async () => {
    const { runId, workflowId } = await seedRun(suite.db());
    const { db, counter } = countingDb(suite.db().raw);
    const bus = new InProcessEventBus();
    const received: RunEventMessage[] = [];
    const storedWhenReceived: Promise<boolean>[] = [];
    await bus.subscribe("runEvents", runId, (message) => {
      received.push(message);
      storedWhenReceived.push(
        suite.db().prisma.runEvent.count({ where: { runId, seq: message.seq } }).then((count) => count === 1),
      );
    });
    const drafts = chainEvents();

    const recorder = new RunEventRecorder(new RunEventWriter(db), bus, { workflowId, version: null }, CHAIN_TYPES);

    await emitAll(recorder.record, runId, drafts, () => recorder.idle());

    expect(received.map((message) => message.seq)).toEqual(drafts.map((_, index) => index + 1));
    expect(await Promise.all(storedWhenReceived)).toEqual(drafts.map(() => true));
    // 14 events, one statement per node: [run started, in], [g1 started, described, completed], [v1 …], [out …], [run completed].
    expect(counter.statements).toBe(5);
    const run = await suite.db().prisma.run.findUniqueOrThrow({ where: { id: runId }, include: { nodeRuns: true } });
    expect(run).toMatchObject({ status: "COMPLETED", lastSeq: drafts.length, result: "out", totalTokens: 20 });
    expect(run.nodeRuns.map((nodeRun) => [nodeRun.nodeKey, nodeRun.status, nodeRun.output, nodeRun.totalTokens]).sort()).toEqual([
      ["g1", "COMPLETED", "g1", 5], ["in", "COMPLETED", "in", 5], ["out", "COMPLETED", "out", 5], ["v1", "COMPLETED", "v1", 5],
    ]);
  });

  test("a stored batch is handed to the bus in seq order without waiting for each publish, and the write settles once the bus is done", async () => {
    const { runId, workflowId } = await seedRun(suite.db());
    const handed: string[] = [];
    let release = (): void => undefined;
    const acknowledged = new Promise<void>((resolve) => (release = resolve));
    // A bus whose broker has not answered yet: publish resolves only on release().
    const bus: EventBus = {
      publish: (topic, _channel, payload) => {
        handed.push(topic === "runEvents" ? `${(payload as RunEventMessage).seq} ${(payload as RunEventMessage).type}` : `status ${(payload as { status: string }).status}`);
        return acknowledged;
      },
      subscribe: () => Promise.resolve(() => undefined),
      close: () => Promise.resolve(),
    };
    const recorder = new RunEventRecorder(new RunEventWriter(suite.db().raw), bus, { workflowId, version: null }, CHAIN_TYPES);
    const drafts = chainEvents().slice(0, 3);

    const recorded = Promise.all(drafts.map((draft, index) => recorder.record({ ...draft, seq: index + 1, runId, at: new Date().toISOString() } as RunEvent)));
    // Until the first publish is acknowledged, a bus that waited for each publish would have only the first.
    await vi.waitFor(() => expect(handed).toHaveLength(4), { timeout: 10_000, interval: 5 });
    let settled = false;
    void recorded.then(() => (settled = true));
    for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));

    // One batch [run started, in started, in completed], all handed over before the first publish was acknowledged.
    expect(handed).toEqual(["1 RUN_STARTED", "status RUNNING", "2 NODE_STARTED", "3 NODE_COMPLETED"]);
    expect(settled).toBe(false);
    release();
    await recorded;
    expect(await suite.db().prisma.runEvent.count({ where: { runId } })).toBe(3);
  });

  test("handed over at once, a node's start, description and completion share one statement; the run's tokens add up", async () => {
    const { runId, workflowId } = await seedRun(suite.db());
    const { db, counter } = countingDb(suite.db().raw);
    const drafts = chainEvents().slice(0, -1);
    const recorder = new RunEventRecorder(new RunEventWriter(db), new InProcessEventBus(), { workflowId, version: null }, CHAIN_TYPES);

    await emitAll(recorder.record, runId, drafts);
    await recorder.stored();

    // 13 events: [run started, in], [g1 started, described, completed], [v1 …], [out started, completed].
    expect(counter.statements).toBe(4);
    const run = await suite.db().prisma.run.findUniqueOrThrow({ where: { id: runId }, include: { nodeRuns: true } });
    expect(run).toMatchObject({ lastSeq: drafts.length, status: "RUNNING", promptTokens: 12, completionTokens: 8, totalTokens: 20 });
    expect(run.nodeRuns.every((nodeRun) => nodeRun.status === "COMPLETED" && nodeRun.startedAt !== null)).toBe(true);
    expect(await suite.db().prisma.runEvent.count({ where: { runId } })).toBe(drafts.length);
  });

  test("a failed write stores and publishes nothing of its batch or after it, and the run's next event is refused", async () => {
    const { runId, workflowId } = await seedRun(suite.db());
    const { db, counter } = countingDb(suite.db().raw);
    counter.failOn = 2;
    const bus = new InProcessEventBus();
    const received: number[] = [];
    await bus.subscribe("runEvents", runId, (message) => received.push(message.seq));
    const recorder = new RunEventRecorder(new RunEventWriter(db), bus, { workflowId, version: null }, CHAIN_TYPES);

    // The first statement (run started, in) is stored; the second (g1) fails.
    await expect(emitAll(recorder.record, runId, chainEvents(), () => recorder.idle())).rejects.toThrow("disk full");
    await expect(recorder.stored()).rejects.toThrow("disk full");
    await expect(recorder.record(warning(runId, 99))).rejects.toThrow("disk full");

    const stored = await suite.db().prisma.runEvent.findMany({ where: { runId }, orderBy: { seq: "asc" } });
    expect(stored.map((event) => event.type)).toEqual(["RUN_STARTED", "NODE_STARTED", "NODE_COMPLETED"]);
    expect(received).toEqual(stored.map((event) => event.seq));
    expect(received).toEqual(received.map((_, index) => index + 1));
    const run = await suite.db().prisma.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.lastSeq).toBe(stored.length);
    expect(counter.statements).toBe(2);
  });

  test("an event arriving while a write is in flight holds the engine until that write is done", async () => {
    const { runId, workflowId } = await seedRun(suite.db());
    const { db, counter } = countingDb(suite.db().raw);
    let release = (): void => undefined;
    counter.gate = new Promise<void>((resolve) => (release = resolve));
    const recorder = new RunEventRecorder(new RunEventWriter(db), new InProcessEventBus(), { workflowId, version: null }, CHAIN_TYPES);

    await recorder.record(warning(runId, 1));
    while (counter.statements === 0) await new Promise((resolve) => setImmediate(resolve));
    let held = true;
    const second = recorder.record(warning(runId, 2)).then(() => (held = false));
    for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(held).toBe(true);

    release();
    await second;
    await recorder.stored();
    expect(counter.statements).toBe(2);
    expect((await suite.db().prisma.run.findUniqueOrThrow({ where: { id: runId } })).lastSeq).toBe(2);
  });

  test("a task's opening (NODE_WAITING) settles only once the task is stored, so a timer set then finds it", async () => {
    const { runId, workflowId } = await seedRun(suite.db());
    const recorder = new RunEventRecorder(new RunEventWriter(suite.db().raw), new InProcessEventBus(), { workflowId, version: null }, CHAIN_TYPES);
    const taskId = randomUUID();
    const opening: Draft = {
      type: "NODE_WAITING", nodeId: "g1", taskId, invocation: "", actions: [{ id: "approve", label: "Approve" }], form: null,
      expiresAt: new Date().toISOString(), title: "Check", instructions: "", input: "draft", editable: false, assignee: null, onTimeout: null,
    };

    // As the engine hands them over: the run's start and the node's start are collected without waiting.
    await emitAll(recorder.record, runId, [{ type: "RUN_STARTED", nodeIds: ["in", "g1", "v1", "out"] }, { type: "NODE_STARTED", nodeId: "g1", nodeType: "generation", invocation: "" }, opening]);
    expect(await suite.db().prisma.humanTask.findUnique({ where: { id: taskId }, select: { status: true } })).toEqual({ status: "OPEN" });
    await recorder.stored();
  });

  test(`a long burst is cut into batches of at most ${MAX_BATCH_EVENTS} events`, async () => {
    const { runId, workflowId } = await seedRun(suite.db());
    const { db, counter } = countingDb(suite.db().raw);
    const recorder = new RunEventRecorder(new RunEventWriter(db), new InProcessEventBus(), { workflowId, version: null }, CHAIN_TYPES);
    const total = MAX_BATCH_EVENTS * 2 + 3;

    for (let seq = 1; seq <= total; seq += 1) await recorder.record(warning(runId, seq));
    await recorder.stored();

    expect(counter.statements).toBe(3);
    expect(await suite.db().prisma.runEvent.count({ where: { runId } })).toBe(total);
  });

  /**
   *   in ──▶ g1 ──▶ v1 ──▶ out        v1 sends g1 back once (loop "regen"): g1 and v1 run again as "regen#2"
   *           ▲──────┘ retry
   */
  test("a loop's second iteration gets node runs of its own, created by its first event in the same single statement", async () => {
    const { runId, workflowId } = await seedRun(suite.db());
    const { db, counter } = countingDb(suite.db().raw);
    const recorder = new RunEventRecorder(new RunEventWriter(db), new InProcessEventBus(), { workflowId, version: null }, CHAIN_TYPES);
    const at = new Date().toISOString();
    const drafts: Draft[] = [
      { type: "RUN_STARTED", nodeIds: ["in", "g1", "v1", "out"] },
      { type: "NODE_COMPLETED", nodeId: "g1", description: "first", output: "draft 1", details: details(at), invocation: "" },
      { type: "LOOP_ITERATION", loopId: "regen", iteration: 2, max: 3, feedback: "too short", invocation: "regen#2" },
      { type: "NODE_STARTED", nodeId: "g1", nodeType: "generation", invocation: "regen#2" },
      { type: "NODE_COMPLETED", nodeId: "g1", description: "second", output: "draft 2", value: { text: "draft 2" }, details: details(at), invocation: "regen#2" },
      { type: "NODE_SKIPPED", nodeId: "v1", reason: "BRANCH_NOT_TAKEN", blockedBy: null, invocation: "regen#2" },
    ];

    await emitAll(recorder.record, runId, drafts);
    await recorder.stored();

    // [run started, g1 completed], [loop iteration, g1#2 started, completed], [v1#2 skipped].
    expect(counter.statements).toBe(3);
    const nodeRuns = await suite.db().prisma.nodeRun.findMany({ where: { runId, nodeKey: { in: ["g1", "v1"] } }, orderBy: [{ nodeKey: "asc" }, { invocation: "asc" }] });
    expect(nodeRuns.map((run) => [run.nodeKey, run.invocation, run.nodeType, run.status, run.output, run.value])).toEqual([
      ["g1", "", "x", "COMPLETED", "draft 1", null],
      ["g1", "regen#2", "generation", "COMPLETED", "draft 2", { text: "draft 2" }],
      ["v1", "", "x", "PENDING", null, null],
      ["v1", "regen#2", "validation", "SKIPPED", null, null],
    ]);
    const loopEvent = await suite.db().prisma.runEvent.findUniqueOrThrow({ where: { runId_seq: { runId, seq: 3 } } });
    expect(loopEvent).toMatchObject({ type: "LOOP_ITERATION", nodeKey: null, payload: { loopId: "regen", iteration: 2, feedback: "too short", invocation: "regen#2" } });
  });
});

describeEachDatabase("run event writer", (suite) => {
  test("batches of several runs waiting behind a write share the next statement; a combined statement that fails is retried run by run", async () => {
    const runs = [await seedRun(suite.db()), await seedRun(suite.db()), await seedRun(suite.db())];
    const { db, counter } = countingDb(suite.db().raw);
    let release = (): void => undefined;
    counter.gate = new Promise<void>((resolve) => (release = resolve));
    const writer = new RunEventWriter(db);
    const recorders = runs.map(({ workflowId }) => new RunEventRecorder(writer, new InProcessEventBus(), { workflowId, version: null }, CHAIN_TYPES));

    // Run 0's first batch holds the writer; runs 1 and 2 queue behind it and go together.
    await recorders[0]!.record(warning(runs[0]!.runId, 1));
    while (counter.statements === 0) await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([recorders[1]!.record(warning(runs[1]!.runId, 1)), recorders[2]!.record(warning(runs[2]!.runId, 1))]);
    for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    counter.gate = null;
    counter.failOn = 2;
    release();
    await Promise.all(recorders.map((recorder) => recorder.stored()));

    // 1: run 0; 2: runs 1 and 2 together, failed; 3 and 4: each of them again, alone.
    expect(counter.statements).toBe(4);
    for (const { runId } of runs) {
      expect(await suite.db().prisma.runEvent.count({ where: { runId } })).toBe(1);
      expect((await suite.db().prisma.run.findUniqueOrThrow({ where: { id: runId } })).lastSeq).toBe(1);
    }
  });

  test("every batch statement is marked planned, so the database keeps each shape prepared", async () => {
    const runs = [await seedRun(suite.db()), await seedRun(suite.db())];
    const sent: string[] = [];
    const raw = suite.db().raw;
    const writer = new RunEventWriter({
      query: <Row>(sql: string, params?: readonly unknown[]) => {
        sent.push(sql);
        return raw.query<Row>(sql, params);
      },
    });
    const recorderOf = (k: number) => new RunEventRecorder(writer, new InProcessEventBus(), { workflowId: runs[k]!.workflowId, version: null }, CHAIN_TYPES);
    // Run 0: one warning; run 1: its first node's events, another shape.
    const first = recorderOf(0);
    await first.record(warning(runs[0]!.runId, 1));
    await first.stored();
    const second = recorderOf(1);
    await emitAll(second.record, runs[1]!.runId, chainEvents().slice(0, 3));
    await second.stored();

    expect(sent).toHaveLength(2);
    expect(sent[1]).not.toBe(sent[0]);
    for (const sql of sent) expect(sql.startsWith(PLANNED_MARK)).toBe(true);
    for (const [k, count] of [[0, 1], [1, 3]] as const) {
      expect(await suite.db().prisma.runEvent.count({ where: { runId: runs[k]!.runId } })).toBe(count);
    }
  });

  test("batches of several runs in one statement store every event and update each run and node run", async () => {
    const runs = [await seedRun(suite.db()), await seedRun(suite.db()), await seedRun(suite.db())];
    const writer = new RunEventWriter(suite.db().raw);
    const recorders = runs.map(({ workflowId }) => new RunEventRecorder(writer, new InProcessEventBus(), { workflowId, version: null }, CHAIN_TYPES));
    await Promise.all(runs.map(({ runId }, k) => emitAll(recorders[k]!.record, runId, chainEvents())));
    for (const { runId } of runs) {
      const run = await suite.db().prisma.run.findUniqueOrThrow({ where: { id: runId }, include: { nodeRuns: true } });
      expect(run).toMatchObject({ status: "COMPLETED", lastSeq: chainEvents().length, result: "out", totalTokens: 20 });
      expect(run.nodeRuns.every((nodeRun) => nodeRun.status === "COMPLETED")).toBe(true);
    }
  });
});
