import { expect, test } from "vitest";
import { seedWorkflow } from "../testing/app.js";
import { withTestDatabase } from "../testing/database.js";
import { arrows } from "../testing/workflows.js";
import { vacuumEmbedded } from "./embedded-vacuum.js";

test("the embedded database's vacuum passes over Weft's tables and gives the planner their statistics", async () => {
  await withTestDatabase("embedded", async (db) => {
    const workflowId = await seedWorkflow(db, arrows(["in->out"]));
    await db.raw.exec(`INSERT INTO "Run" (id, "workflowId", status, request, snapshot) SELECT 'r' || n, '${workflowId}', 'QUEUED', '{}', '{}' FROM generate_series(1, 200) n`);
    // Each run's row rewritten twice, as a claim and an end would: 400 dead versions.
    await db.raw.exec(`UPDATE "Run" SET status = 'RUNNING'`);
    await db.raw.exec(`UPDATE "Run" SET status = 'COMPLETED'`);
    const state = async () =>
      (await db.raw.query<{ tuples: number }>(`SELECT reltuples::int AS tuples FROM pg_class WHERE relname = 'Run'`)).rows[0]!;
    expect((await state()).tuples).toBe(-1); // never analyzed: PGlite runs no autovacuum

    expect(await vacuumEmbedded(db.raw)).toBeGreaterThan(10);
    expect((await state()).tuples).toBe(200);
  });
});
