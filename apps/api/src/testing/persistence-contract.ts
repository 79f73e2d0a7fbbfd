import { expect, it } from "vitest";
import type { Database } from "../db/db.js";
import { checkMigrations } from "../db/migration-check.js";
import { readMigrationsDir } from "../db/migrations-dir.js";
import type { PrismaClient } from "../generated/prisma/client.js";

/*
 * The behaviour both persistence modes must share. db.test.ts runs it on embedded PGlite,
 * db.int.test.ts on a real PostgreSQL server.
 */

type Db = () => Database;

async function createWorkflow(prisma: PrismaClient, name = "Summarise") {
  // input ──▶ generate ──▶ output
  return prisma.workflow.create({
    data: {
      name,
      prompts: { generation: "Summarise {input_data}" },
      outputFormat: "plain text",
      // Edges listed before nodes: the deferred foreign keys make the insert order irrelevant.
      edges: {
        create: [
          { key: "e1", source: "in", target: "gen", position: 1 },
          { key: "e2", source: "gen", target: "out", position: 2 },
        ],
      },
      nodes: {
        create: [
          { key: "in", type: "input", content: "hello", positionX: 10, positionY: 20 },
          { key: "gen", type: "generation", provider: "offline", model: "echo", params: { temperature: 0.2 } },
          { key: "out", type: "output" },
        ],
      },
    },
    include: { nodes: true, edges: true },
  });
}

async function createRun(prisma: PrismaClient, workflowId: string) {
  return prisma.run.create({
    data: {
      workflowId,
      request: { inputs: { in: "hello" } },
      snapshot: { nodes: ["in", "gen", "out"] },
    },
  });
}

function errorCode(error: unknown): string | undefined {
  return (error as { code?: string }).code;
}

export function persistenceContract(db: Db): void {
  it("records the applied migrations in _prisma_migrations as Prisma does", async () => {
    const { rows } = await db().raw.query<{ migration_name: string; finished: boolean; rolled_back: boolean }>(
      `SELECT migration_name, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back
         FROM _prisma_migrations ORDER BY migration_name`,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.finished && !row.rolled_back)).toBe(true);
    expect(rows[0]?.migration_name).toMatch(/^\d{14}_init$/);
    const status = await db().migrationStatus();
    expect(status).toMatchObject({ upToDate: true, pending: [], failed: [], edited: [] });
    // The quick check on open computes the same checksums as the engine wrote.
    expect(await checkMigrations(db().raw, await readMigrationsDir())).toEqual({ unapplied: [], failed: [], ahead: [] });
  });

  it("applies nothing when migrating an up-to-date database again", async () => {
    expect(await db().migrate()).toEqual([]);
  });

  it("round-trips a workflow with its nodes, edges in creation order and JSON fields", async () => {
    const { prisma } = db();
    const created = await createWorkflow(prisma);
    const read = await prisma.workflow.findUniqueOrThrow({
      where: { id: created.id },
      include: { nodes: { orderBy: { createdAt: "asc" } }, edges: { orderBy: { position: "asc" } } },
    });
    expect(read.prompts).toEqual({ generation: "Summarise {input_data}" });
    expect(read.intensity).toBe("LOW");
    expect(read.edges.map((edge) => `${edge.source}->${edge.target}`)).toEqual(["in->gen", "gen->out"]);
    const gen = read.nodes.find((node) => node.key === "gen");
    expect(gen).toMatchObject({ type: "generation", provider: "offline", model: "echo", params: { temperature: 0.2 } });
    expect(read.nodes.find((node) => node.key === "in")).toMatchObject({ content: "hello", positionX: 10, positionY: 20 });
  });

  it("refuses an edge whose node does not exist", async () => {
    const { prisma } = db();
    const workflow = await createWorkflow(prisma);
    const error = await prisma.workflowEdge
      .create({ data: { workflowId: workflow.id, key: "e9", source: "in", target: "ghost", position: 3 } })
      .catch((caught: unknown) => caught);
    expect(errorCode(error)).toBe("P2003");
  });

  it("removes a node's edges with the node and follows a renamed node", async () => {
    const { prisma } = db();
    const workflow = await createWorkflow(prisma);
    await prisma.workflowNode.update({
      where: { workflowId_key: { workflowId: workflow.id, key: "out" } },
      data: { key: "result" },
    });
    await prisma.workflowNode.delete({ where: { workflowId_key: { workflowId: workflow.id, key: "in" } } });
    const edges = await prisma.workflowEdge.findMany({ where: { workflowId: workflow.id } });
    expect(edges.map((edge) => `${edge.source}->${edge.target}`)).toEqual(["gen->result"]);
  });

  it("stores a run with node runs and events, and refuses a second event with the same seq", async () => {
    const { prisma } = db();
    const workflow = await createWorkflow(prisma);
    const run = await createRun(prisma, workflow.id);
    await prisma.nodeRun.create({
      data: {
        runId: run.id,
        nodeKey: "gen",
        nodeType: "generation",
        status: "COMPLETED",
        inputs: ["hello"],
        renderedPrompt: "Summarise hello",
        context: [{ source: "doc.md#2", score: 0.82, text: "hi" }],
        rawReply: '{"description":"d","output":"o"}',
        description: "d",
        output: "o",
        model: "echo",
        promptTokens: 5,
        completionTokens: 7,
        totalTokens: 12,
        retries: 1,
        startedAt: new Date("2026-01-01T00:00:00Z"),
        finishedAt: new Date("2026-01-01T00:00:01Z"),
      },
    });
    await prisma.runEvent.createMany({
      data: [
        { runId: run.id, seq: 1, type: "RUN_STARTED", payload: {} },
        { runId: run.id, seq: 2, type: "NODE_STARTED", nodeKey: "gen", payload: {} },
      ],
    });
    const duplicate = await prisma.runEvent
      .create({ data: { runId: run.id, seq: 2, type: "WARNING", payload: {} } })
      .catch((caught: unknown) => caught);
    expect(errorCode(duplicate)).toBe("P2002");

    const read = await prisma.run.findUniqueOrThrow({
      where: { id: run.id },
      include: { nodeRuns: true, events: { orderBy: { seq: "asc" } } },
    });
    expect(read.status).toBe("QUEUED");
    expect(read.events.map((event) => event.type)).toEqual(["RUN_STARTED", "NODE_STARTED"]);
    expect(read.nodeRuns[0]).toMatchObject({ context: [{ source: "doc.md#2", score: 0.82, text: "hi" }], retries: 1 });
    expect(read.nodeRuns[0]?.finishedAt?.toISOString()).toBe("2026-01-01T00:00:01.000Z");
  });

  it("lets any number of runs of one workflow be active at once", async () => {
    const { prisma } = db();
    const workflow = await createWorkflow(prisma);
    await Promise.all([createRun(prisma, workflow.id), createRun(prisma, workflow.id), createRun(prisma, workflow.id)]);
    expect(await prisma.run.count({ where: { workflowId: workflow.id, status: "QUEUED" } })).toBe(3);
  });

  it("deletes a workflow's nodes, edges, runs, node runs and events with it", async () => {
    const { prisma } = db();
    const workflow = await createWorkflow(prisma);
    const kept = await createWorkflow(prisma, "Kept");
    const run = await createRun(prisma, workflow.id);
    await prisma.nodeRun.create({ data: { runId: run.id, nodeKey: "gen", nodeType: "generation" } });
    await prisma.runEvent.create({ data: { runId: run.id, seq: 1, type: "RUN_STARTED", payload: {} } });
    await prisma.workflow.delete({ where: { id: workflow.id } });
    const counts = await Promise.all([
      prisma.workflowNode.count(),
      prisma.workflowEdge.count(),
      prisma.run.count(),
      prisma.nodeRun.count(),
      prisma.runEvent.count(),
    ]);
    expect(counts).toEqual([kept.nodes.length, kept.edges.length, 0, 0, 0]);
  });

  it("numbers versions once per workflow, and deletes a workflow's versions with the runs that reference them", async () => {
    const { prisma } = db();
    const workflow = await createWorkflow(prisma);
    const version = (number: number) => ({ workflowId: workflow.id, number, document: { nodes: [] }, contentHash: "h", editVersion: 1 });
    const v1 = await prisma.workflowVersion.create({ data: version(1) });
    const twice = await prisma.workflowVersion.create({ data: version(1) }).catch((caught: unknown) => caught);
    expect(errorCode(twice)).toBe("P2002");
    const run = await createRun(prisma, workflow.id);
    await prisma.run.update({ where: { id: run.id }, data: { versionId: v1.id, versionNumber: 1 } });
    // A version that runs reference cannot go on its own…
    const alone = await prisma.workflowVersion.delete({ where: { id: v1.id } }).catch((caught: unknown) => caught);
    expect(alone).toBeInstanceOf(Error);
    // …but goes with its workflow, together with those runs, in one statement.
    await prisma.workflow.delete({ where: { id: workflow.id } });
    expect([await prisma.workflowVersion.count(), await prisma.run.count()]).toEqual([0, 0]);
  });

  it("deletes a knowledge base's documents and refuses a duplicate document", async () => {
    const { prisma } = db();
    const kb = await prisma.knowledgeBase.create({
      data: { name: "handbook", embeddingModel: "local-ngram", dimension: 256, store: "pgvector" },
    });
    await prisma.document.create({ data: { knowledgeBaseId: kb.id, title: "a.md", contentHash: "h1", content: "A" } });
    const duplicate = await prisma.document
      .create({ data: { knowledgeBaseId: kb.id, title: "again.md", contentHash: "h1", content: "A" } })
      .catch((caught: unknown) => caught);
    expect(errorCode(duplicate)).toBe("P2002");
    await prisma.knowledgeBase.delete({ where: { id: kb.id } });
    expect(await prisma.document.count()).toBe(0);
  });

  it("keeps a run when its API key is deleted", async () => {
    const { prisma } = db();
    const key = await prisma.apiKey.create({ data: { name: "ci", prefix: "wft_ab", hash: "f".repeat(64), scopes: ["run"] } });
    const workflow = await createWorkflow(prisma);
    const run = await prisma.run.create({
      data: { workflowId: workflow.id, apiKeyId: key.id, request: {}, snapshot: {} },
    });
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } })).scopes).toEqual(["run"]);
    await prisma.apiKey.delete({ where: { id: key.id } });
    expect((await prisma.run.findUniqueOrThrow({ where: { id: run.id } })).apiKeyId).toBeNull();
  });

  it("runs plain SQL with parameters and rolls back a failed raw transaction", async () => {
    const { raw } = db();
    await raw.exec("CREATE TABLE scratch (id int PRIMARY KEY, label text); INSERT INTO scratch VALUES (1, 'one')");
    const failed = raw.transaction(async (tx) => {
      await tx.query("INSERT INTO scratch VALUES ($1, $2)", [2, "two"]);
      await tx.query("INSERT INTO scratch VALUES ($1, $2)", [1, "duplicate"]);
    });
    await expect(failed).rejects.toThrow(/duplicate key/);
    const { rows } = await raw.query<{ id: number; label: string }>("SELECT id, label FROM scratch WHERE id >= $1", [0]);
    expect(rows).toEqual([{ id: 1, label: "one" }]);
    const update = await raw.query("UPDATE scratch SET label = $1", ["uno"]);
    expect(update.affectedRows).toBe(1);
  });
}
