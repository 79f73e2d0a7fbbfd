import { expect, test } from "vitest";
import type { RunEventMessage } from "../../pubsub.js";
import { busEvent, redisBusPair, until } from "../../testing/redis-buses.js";
import { seedWorkflow } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { redisForTests } from "../../testing/redis-server.js";
import { arrows } from "../../testing/workflows.js";
import { RunEventReplays } from "./run-event-replay.js";
import { replayThenLive } from "./run-event-stream.js";

/** runEvents' replay-then-live contract when the worker and the subscriber are different processes. */
const redis = redisForTests();

describeEachDatabase(
  "runEvents across processes on Redis",
  (suite) => {
    test("a subscriber on one process gets every seq once, in order, through a Redis restart during the run", async () => {
      const db = suite.db().prisma;
      const workflowId = await seedWorkflow(suite.db(), arrows(["in->out"]));
      const run = await db.run.create({ data: { workflowId, status: "RUNNING", request: {}, snapshot: {} } });
      const [worker, api] = redisBusPair(redis().url);
      // The worker process stores each event, then publishes it (as the run event recorder does).
      const store = async (seq: number, type: RunEventMessage["type"] = "WARNING") => {
        const message = busEvent(run.id, seq, type);
        await db.runEvent.create({ data: { runId: run.id, seq, type, payload: message.payload as object, at: new Date(message.at) } });
        await db.run.update({ where: { id: run.id }, data: { lastSeq: seq, ...(type === "RUN_COMPLETED" ? { status: "COMPLETED" } : {}) } });
        await worker.publish("runEvents", run.id, message);
      };
      try {
        await store(1);
        const stream = (await replayThenLive(new RunEventReplays(db), api, run.id, 0))!;
        const seqs: number[] = [];
        const reading = (async () => {
          for await (const message of stream) seqs.push(message.seq);
        })();
        await store(2);
        await until(() => seqs.length === 2, "the first two events");

        await redis().crash();
        for (let seq = 3; seq <= 6; seq += 1) await store(seq); // stored, not delivered: Redis is down
        await redis().restart();
        await until(() => seqs.length === 6, "the events stored while Redis was down");
        await store(7);
        await store(8, "RUN_COMPLETED");
        await reading;
        expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      } finally {
        await Promise.all([worker.close(), api.close()]);
      }
    }, 60_000);
  },
  { modes: ["server"] },
);
