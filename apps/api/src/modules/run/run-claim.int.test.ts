import type { RunEvent } from "@weft/engine";
import { expect, test } from "vitest";
import { InProcessEventBus } from "../../pubsub.js";
import { describeEachDatabase, type TestDatabase } from "../../testing/database.js";
import { seedWorkflow } from "../../testing/app.js";
import { arrows } from "../../testing/workflows.js";
import { claimRun, releaseRun } from "./run-claim.js";
import { RunEventRecorder } from "./run-event-recorder.js";
import { isRunFenced, RunEventWriter } from "./run-event-writer.js";
import { terminateRun } from "./run-termination.js";

const warning = (runId: string, seq: number): RunEvent => ({ type: "WARNING", code: "W", message: `m${seq}`, seq, runId, at: new Date().toISOString() });

async function queuedRun(database: TestDatabase): Promise<{ runId: string; workflowId: string }> {
  const workflowId = await seedWorkflow(database, arrows(["in->out"]));
  const run = await database.prisma.run.create({ data: { workflowId, status: "QUEUED", request: {}, snapshot: {} } });
  return { runId: run.id, workflowId };
}

describeEachDatabase("run claims and fencing", (suite) => {
  test("each claim is a new attempt; the earlier attempt can then neither store nor publish, the later one continues the seqs", async () => {
    const { runId, workflowId } = await queuedRun(suite.db());
    const db = suite.db().prisma;
    const bus = new InProcessEventBus();
    const published: number[] = [];
    await bus.subscribe("runEvents", runId, (message) => published.push(message.seq));
    const writer = new RunEventWriter(suite.db().raw);

    const first = await claimRun(db, runId, "worker-a");
    expect(first).toEqual({ attempt: 1, status: "QUEUED", lastSeq: 0, handovers: 0, crashSuspects: null, previousWorker: null });
    const zombie = new RunEventRecorder(writer, bus, { workflowId, version: null }, new Map(), first!.attempt);
    await zombie.record(warning(runId, 1));
    await zombie.stored();

    const second = await claimRun(db, runId, "worker-b");
    expect(second).toEqual({ attempt: 2, status: "QUEUED", lastSeq: 1, handovers: 0, crashSuspects: null, previousWorker: "worker-a" });
    const refused = await zombie.record(warning(runId, 2)).then(() => zombie.stored()).catch((error: unknown) => error);
    expect(isRunFenced(refused)).toBe(true);

    const owner = new RunEventRecorder(writer, bus, { workflowId, version: null }, new Map(), second!.attempt);
    await owner.record(warning(runId, 2));
    await owner.stored();
    const stored = await db.runEvent.findMany({ where: { runId }, orderBy: { seq: "asc" } });
    expect(stored.map((row) => (row.payload as { message: string }).message)).toEqual(["m1", "m2"]);
    expect(published).toEqual([1, 2]);
    expect(await db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ attempt: 2, claimedBy: "worker-b", lastSeq: 2 });
  });

  test("an ended run cannot be claimed, and an earlier attempt cannot end a run a later one holds", async () => {
    const { runId } = await queuedRun(suite.db());
    const db = suite.db().prisma;
    await claimRun(db, runId);
    await claimRun(db, runId);
    expect(await terminateRun(db, runId, { kind: "failed", code: "X", message: "old attempt" }, { attempt: 1 })).toBeNull();
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("QUEUED");

    const ended = await terminateRun(db, runId, { kind: "cancelled", reason: "stop" }, { attempt: 2 });
    expect(ended?.status).toBe("CANCELLED");
    expect(await claimRun(db, runId)).toBeNull();
  });

  test("a released attempt counts a handover, names no worker, and only the attempt holding the run can release it", async () => {
    const { runId } = await queuedRun(suite.db());
    const db = suite.db().prisma;
    const first = await claimRun(db, runId, "worker-a");
    expect(await releaseRun(db, runId, first!.attempt)).toBe(true);
    expect(await db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ attempt: 1, handovers: 1, claimedBy: null, status: "QUEUED" });

    const second = await claimRun(db, runId, "worker-b");
    expect(second).toMatchObject({ attempt: 2, handovers: 1, previousWorker: null });
    expect(await releaseRun(db, runId, first!.attempt)).toBe(false);
    await terminateRun(db, runId, { kind: "cancelled", reason: "stop" }, { attempt: 2 });
    expect(await releaseRun(db, runId, second!.attempt)).toBe(false);
    expect(await db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ handovers: 1, claimedBy: "worker-b" });
  });
});
