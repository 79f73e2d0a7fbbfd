import { expect, test } from "vitest";
import type { PrismaClient } from "../../generated/prisma/client.js";
import { seedWorkflow } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { busEvent } from "../../testing/redis-buses.js";
import { arrows } from "../../testing/workflows.js";
import { RunEventReplays } from "./run-event-replay.js";

/** The database as RunEventReplays reads it, counting its reads and able to hold a read's events back. */
function watched(db: PrismaClient) {
  const state = { reads: 0, hold: null as Promise<void> | null, eventsRead: () => undefined as void };
  const run = { findUnique: (args: never) => (state.reads++, db.run.findUnique(args)) };
  const runEvent = {
    findMany: async (args: never) => {
      const rows = await db.runEvent.findMany(args);
      state.eventsRead();
      if (state.hold) await state.hold;
      return rows;
    },
  };
  return { db: { run, runEvent } as unknown as PrismaClient, state };
}

describeEachDatabase("catch-up reads shared by a run's subscribers", (suite) => {
  async function runWithEvents(count: number): Promise<string> {
    const db = suite.db().prisma;
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->out"]));
    const run = await db.run.create({ data: { workflowId, status: "RUNNING", request: {}, snapshot: {}, lastSeq: count } });
    for (let seq = 1; seq <= count; seq += 1) await store(run.id, seq);
    return run.id;
  }

  async function store(runId: string, seq: number): Promise<void> {
    const message = busEvent(runId, seq);
    await suite.db().prisma.runEvent.create({ data: { runId, seq, type: message.type, payload: message.payload as object, at: new Date(message.at) } });
  }

  test("subscriptions asking in the same turn share one read, from the lowest seq asked for", async () => {
    const runId = await runWithEvents(3);
    const { db, state } = watched(suite.db().prisma);
    const replays = new RunEventReplays(db);
    const [a, b, c] = await Promise.all([replays.read(runId, 2), replays.read(runId, 0), replays.read(runId, 3)]);
    expect(state.reads).toBe(1);
    expect(a).toBe(b);
    expect(c).toBe(b);
    expect(b).toMatchObject({ finished: false, lastSeq: 3 });
    expect(b!.events.map((event) => event.seq)).toEqual([1, 2, 3]);
  });

  test("a subscription asking while a read is on its way gets the next read, which starts after it asked", async () => {
    const runId = await runWithEvents(3);
    const { db, state } = watched(suite.db().prisma);
    const replays = new RunEventReplays(db);
    let release!: () => void;
    state.hold = new Promise((resolve) => (release = resolve));
    const eventsRead = new Promise<void>((resolve) => (state.eventsRead = resolve));
    const first = replays.read(runId, 0);
    await eventsRead;
    // The first read has its rows; an event stored now (and published after the next subscription was
    // live) must reach that subscription through a read of its own.
    await store(runId, 4);
    state.hold = null;
    const second = replays.read(runId, 0);
    const third = replays.read(runId, 1);
    release();
    expect((await first)!.events.map((event) => event.seq)).toEqual([1, 2, 3]);
    expect((await second)!.events.map((event) => event.seq)).toEqual([1, 2, 3, 4]);
    expect(await third).toBe(await second);
    expect(state.reads).toBe(2);
  });

  test("a run that does not exist reads as null, and a finished run as finished", async () => {
    const replays = new RunEventReplays(suite.db().prisma);
    expect(await replays.read("00000000-0000-4000-8000-000000000000", 0)).toBeNull();
    const runId = await runWithEvents(2);
    await suite.db().prisma.run.update({ where: { id: runId }, data: { status: "COMPLETED" } });
    expect(await replays.read(runId, 2)).toMatchObject({ finished: true, lastSeq: 2, events: [] });
  });
});
