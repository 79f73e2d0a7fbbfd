import { Writable } from "node:stream";
import { pino } from "pino";
import { expect, it } from "vitest";
import { ALL_RUNS, InProcessEventBus } from "../../pubsub.js";
import { seedWorkflow } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { arrows } from "../../testing/workflows.js";
import { endRun, type RunEndingDeps } from "./run-ending.js";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { SpanStatusCode } from "@opentelemetry/api";
import type { RunEvent } from "@weft/engine";
import { WeftMetrics } from "../../metrics/weft-metrics.js";
import { runTracerWith } from "../../metrics/run-tracing.js";

/** endRun's parts: the database, a bus that keeps what it was given, a logger that keeps its lines. */
async function ending(db: RunEndingDeps["db"]) {
  const bus = new InProcessEventBus();
  const published: [string, unknown][] = [];
  await bus.subscribe("runStatus", ALL_RUNS, (message) => published.push(["runStatus", message]));
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString("utf8").split("\n")) if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  const follow = (runId: string) => bus.subscribe("runEvents", runId, (message) => published.push(["runEvents", [message.seq, message.type, message.nodeId]]));
  return { deps: { db, bus, logger: pino({ level: "info" }, sink) }, published, logs, follow };
}

describeEachDatabase("ending a run from outside its executor", (suite) => {
  async function startedRun() {
    // in ──▶ g1 ──▶ out, stopped while `in` was running
    const { prisma } = suite.db();
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const startedAt = new Date(Date.now() - 1_000);
    const run = await prisma.run.create({ data: { workflowId, status: "RUNNING", request: {}, snapshot: {}, lastSeq: 2, attempt: 1, startedAt, totalTokens: 7 } });
    await prisma.runEvent.createMany({
      data: [
        { runId: run.id, seq: 1, type: "RUN_STARTED", payload: { nodeIds: ["in", "g1", "out"] }, at: startedAt },
        { runId: run.id, seq: 2, type: "NODE_STARTED", nodeKey: "in", payload: { nodeId: "in" }, at: startedAt },
      ],
    });
    await prisma.nodeRun.createMany({
      data: [
        { runId: run.id, nodeKey: "in", nodeType: "input", status: "RUNNING", startedAt },
        { runId: run.id, nodeKey: "g1", nodeType: "generation" },
      ],
    });
    return run;
  }

  it("publishes the closing events in seq order, then the status change, and logs the end once; a second end does nothing", async () => {
    const run = await startedRun();
    const { deps, published, logs, follow } = await ending(suite.db().prisma);
    await follow(run.id);
    const ended = await endRun(deps, run.id, { kind: "failed", code: "RUN_EXECUTION_FAILED", message: "the run stopped" }, { attempt: 1 });
    expect(ended).toMatchObject({ status: "FAILED", error: { code: "RUN_EXECUTION_FAILED" }, totalTokens: 7 });
    expect(published).toEqual([
      ["runEvents", [3, "NODE_FAILED", "in"]],
      ["runEvents", [4, "NODE_SKIPPED", "g1"]],
      ["runEvents", [5, "RUN_FAILED", null]],
      ["runStatus", expect.objectContaining({ runId: run.id, workflowId: run.workflowId, version: null, status: "FAILED" })],
    ]);
    expect(logs).toEqual([
      expect.objectContaining({ level: 40, msg: "run failed", runId: run.id, status: "FAILED", errorCode: "RUN_EXECUTION_FAILED", totalTokens: 7, durationMs: expect.any(Number) }),
    ]);

    expect(await endRun(deps, run.id, { kind: "cancelled", reason: "too late" })).toBeNull();
    expect(published).toHaveLength(4);
    expect(logs).toHaveLength(1);
    expect(await suite.db().prisma.run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: "FAILED", lastSeq: 5 });
  });

  it("lets the process's observers see the closing events as the engine's: the end counts in weft_runs_ended_total, and the run's trace span ends", async () => {
    const run = await startedRun();
    const { deps } = await ending(suite.db().prisma);
    const exporter = new InMemorySpanExporter();
    const tracer = runTracerWith("weft-test", [new SimpleSpanProcessor(exporter)]);
    const metrics = new WeftMetrics({ runCounts: async () => ({}), taskCounts: async () => ({}), queue: () => ({ queued: 0, running: 0 }) });
    const observe = (event: RunEvent) => {
      metrics.observeEvent(event);
      tracer.observeEvent(event);
    };
    // What the worker's observers had seen before its execution threw: the run and `in` started.
    const at = new Date().toISOString();
    observe({ type: "RUN_STARTED", runId: run.id, seq: 1, at, nodeIds: ["in", "g1", "out"] });
    observe({ type: "NODE_STARTED", runId: run.id, seq: 2, at, nodeId: "in", nodeType: "input", invocation: "" });
    expect(exporter.getFinishedSpans()).toEqual([]);

    await endRun({ ...deps, observe }, run.id, { kind: "failed", code: "RUN_EXECUTION_FAILED", message: "the run stopped" }, { attempt: 1 });
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name).sort()).toEqual(["node input", "run"]);
    expect(spans.find((span) => span.name === "run")).toMatchObject({ status: { code: SpanStatusCode.ERROR, message: "RUN_EXECUTION_FAILED" }, attributes: { "weft.run.status": "FAILED" } });
    expect(await metrics.registry.getSingleMetricAsString("weft_runs_ended_total")).toContain('weft_runs_ended_total{status="FAILED"} 1');
    await tracer.close();
  });

  it("leaves a run another attempt holds as it is, publishing and logging nothing", async () => {
    const run = await startedRun();
    const { deps, published, logs, follow } = await ending(suite.db().prisma);
    await follow(run.id);
    expect(await endRun(deps, run.id, { kind: "failed", code: "RUN_EXECUTION_FAILED", message: "stale" }, { attempt: 2 })).toBeNull();
    expect(published).toEqual([]);
    expect(logs).toEqual([]);
    expect(await suite.db().prisma.run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: "RUNNING", lastSeq: 2 });
  });

  it("ends a queued run with its terminal event alone and logs it cancelled with its code", async () => {
    const { prisma } = suite.db();
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const run = await prisma.run.create({ data: { workflowId, status: "QUEUED", request: {}, snapshot: {} } });
    const { deps, published, logs, follow } = await ending(prisma);
    await follow(run.id);
    await endRun(deps, run.id, { kind: "cancelled", reason: "cancelled by a client" });
    expect(published).toEqual([["runEvents", [1, "RUN_CANCELLED", null]], ["runStatus", expect.objectContaining({ status: "CANCELLED" })]]);
    expect(logs).toEqual([expect.objectContaining({ level: 30, msg: "run cancelled", status: "CANCELLED", errorCode: "RUN_CANCELLED", durationMs: null })]);
  });
});
