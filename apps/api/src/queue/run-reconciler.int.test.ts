import { pino } from "pino";
import { expect, test } from "vitest";
import { describeEachDatabase } from "../testing/database.js";
import { seedWorkflow } from "../testing/app.js";
import { redisBusPair } from "../testing/redis-buses.js";
import { redisForTests } from "../testing/redis-server.js";
import { arrows } from "../testing/workflows.js";
import { BullIngestionQueue } from "./bull-ingestion-queue.js";
import { BullRunQueue } from "./bull-run-queue.js";
import { RunReconciler } from "./run-reconciler.js";

/** PostgreSQL holds the work, Redis carries it: what Redis lost is handed to the queues again. */
const logger = pino({ level: "silent" });
const redis = redisForTests();

describeEachDatabase(
  "run reconciler",
  (suite) => {
    test("active runs and PENDING documents without a job are enqueued again, by one of two reconcilers at a time", async () => {
      const db = suite.db().prisma;
      const workflowId = await seedWorkflow(suite.db(), arrows(["in->out"]));
      const old = new Date(Date.now() - 60_000);
      const queued = await db.run.create({ data: { workflowId, status: "QUEUED", request: {}, snapshot: {}, createdAt: old } });
      const running = await db.run.create({ data: { workflowId, status: "RUNNING", request: {}, snapshot: {}, createdAt: old } });
      const fresh = await db.run.create({ data: { workflowId, status: "QUEUED", request: {}, snapshot: {} } });
      await db.run.create({ data: { workflowId, status: "COMPLETED", request: {}, snapshot: {}, createdAt: old } });
      const kb = await db.knowledgeBase.create({ data: { name: "kb", embeddingModel: "local", dimension: 8, store: "pgvector" } });
      await db.$executeRaw`INSERT INTO "Document" (id, "knowledgeBaseId", title, "contentHash", content, "updatedAt") VALUES (gen_random_uuid()::text, ${kb.id}, 't', 'h', 'c', ${old})`;

      const [busA, busB] = redisBusPair(redis().url);
      const prefix = `rec${Math.random().toString(36).slice(2, 8)}`;
      const runs = new BullRunQueue({ url: redis().url, prefix, bus: busA, logger, worker: null, concurrency: 1, lockMs: 1_000, graceMs: 0, workerId: "reconciler-test" });
      const ingestion = new BullIngestionQueue({ url: redis().url, prefix, bus: busB, logger, worker: null, concurrency: 1, lockMs: 1_000, hasPending: async () => false });
      const reconcilers = [0, 1].map(() => new RunReconciler(db, runs, logger, 3_600_000, ingestion));
      try {
        const passes = await Promise.all(reconcilers.map((reconciler) => reconciler.reconcile()));
        // One leader did the work (the other found the advisory lock taken), or they took turns and the second found jobs.
        expect(passes.reduce((sum, count) => sum + count, 0)).toBe(3);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect([await runs.hasJob(queued.id), await runs.hasJob(running.id), await runs.hasJob(fresh.id)]).toEqual([true, true, false]);
        expect(await ingestion.hasJob(kb.id)).toBe(true);
        expect(await reconcilers[0]!.reconcile()).toBe(0);
      } finally {
        await Promise.all(reconcilers.map((reconciler) => reconciler.stop()));
        await Promise.all([runs.close(), ingestion.close()]);
        await Promise.all([busA.close(), busB.close()]);
      }
    });
  },
  { modes: ["server"] },
);
