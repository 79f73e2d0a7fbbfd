import { readFile } from "node:fs/promises";
import path from "node:path";
import { parsePreparedRun } from "@weft/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../testing/database.js";
import { defaultMigrationsDir } from "./migrations-dir.js";

const MIGRATION = path.join(defaultMigrationsDir, "20261126140000_prepared_run_snapshots", "migration.sql");

const workflow = {
  name: "before",
  prompts: { generation: "{input_data}" },
  outputFormat: "JSON",
  knowledgeBase: null,
  intensity: "LOW",
  nodes: [
    { id: "in", type: "input", content: "stored" },
    { id: "out", type: "output", content: "" },
  ],
  edges: [{ id: "e1", source: "in", target: "out" }],
};
const settings = { prompts: { generation: "{input_data}" }, outputFormat: "JSON", knowledgeBase: null, intensity: "LOW", topK: 3, parseRepair: true, streamTokens: false };

let db: TestDatabase;

beforeAll(async () => {
  db = await openTestDatabase("embedded");
}, 120_000);
afterAll(async () => {
  await db.close();
});

describe("the prepared-run snapshot migration", () => {
  it("rewrites a snapshot of the earlier shape as a prepared run, input contents taken from the request", async () => {
    const { id: workflowId } = await db.prisma.workflow.create({ data: { name: "w", prompts: {}, outputFormat: "" } });
    const old = { version: 1, workflow, settings, options: { concurrency: 4 } };
    const [withInputs, without, current] = await Promise.all([
      db.prisma.run.create({ data: { workflowId, status: "COMPLETED", request: { inputs: { in: "supplied" } }, snapshot: old } }),
      db.prisma.run.create({ data: { workflowId, status: "FAILED", request: {}, snapshot: old } }),
      db.prisma.run.create({ data: { workflowId, status: "COMPLETED", request: {}, snapshot: { format: "weft.run/1", keep: "as is" } } }),
    ]);
    await db.raw.exec(await readFile(MIGRATION, "utf8"));
    const snapshotOf = async (id: string) => (await db.prisma.run.findUniqueOrThrow({ where: { id } })).snapshot;
    expect(parsePreparedRun(await snapshotOf(withInputs.id))).toEqual({ format: "weft.run/1", workflow, settings, inputs: { in: "supplied" }, state: {}, concurrency: 4, maxInvocations: 1000 });
    expect(parsePreparedRun(await snapshotOf(without.id)).inputs).toEqual({});
    expect(await snapshotOf(current.id)).toEqual({ format: "weft.run/1", keep: "as is" });
  });
});
