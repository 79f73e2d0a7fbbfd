import { createBuiltInRegistry, OfflineLlmProvider } from "@weft/engine";
import { expect, it } from "vitest";
import { PrismaClient } from "../../generated/prisma/client.js";
import { seedWorkflow } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { arrows } from "../../testing/workflows.js";
import { nextNodeId } from "./node-id.js";
import { withLockedDraft } from "./workflow-lock.js";
import { WorkflowService } from "./workflow.service.js";

/**
 * What an edit costs in statements, and what the statements after the lock must see. On the embedded
 * database each statement is a round trip through PGlite, the main cost of an edit: this file fails when
 * an edit grows back a statement (counted with Prisma's query events; the transaction's BEGIN is not an
 * event, its COMMIT is).
 */

const registry = createBuiltInRegistry();
const llm = new Map([["offline", new OfflineLlmProvider()]]);

describeEachDatabase(
  "statements per edit",
  (suite) => {
    it("sends the lock, one statement and the commit for addNode, addEdge, removeEdge and removeNode, and one more for updateNode", async () => {
      // in ──▶ g1 ──▶ out,  then + g2 (given id), + generation-1 (picked id), in ──▶ g2, update g2, − that edge, − g2
      const db = suite.db();
      if (!db.embedded) throw new Error("an embedded database has a thread");
      const prisma = new PrismaClient({ adapter: db.embedded.adapterFactory, log: [{ emit: "event", level: "query" }] });
      const statements: string[] = [];
      prisma.$on("query", (event) => statements.push(event.query));
      try {
        const workflowId = await seedWorkflow(db, arrows(["in->g1->out"]));
        const service = new WorkflowService({ db: prisma, registry, llm });
        const counted = async <T extends { ok: boolean }>(edit: () => Promise<T>): Promise<{ outcome: T; count: number }> => {
          statements.length = 0;
          const outcome = await edit();
          expect(outcome.ok).toBe(true);
          return { outcome, count: statements.length };
        };
        const counts: Record<string, number> = {};
        counts.addNode = (await counted(() => service.nodes.addNode(workflowId, { type: "generation", id: "g2", provider: "offline", model: "echo" }))).count;
        counts.addNodePicked = (await counted(() => service.nodes.addNode(workflowId, { type: "generation", provider: "offline", model: "echo" }))).count;
        const added = await counted(() => service.edges.addEdge(workflowId, "in", "g2"));
        counts.addEdge = added.count;
        counts.updateNode = (await counted(() => service.nodes.updateNode(workflowId, "g2", { prompt: "Summarise {input_data}" }))).count;
        if (!added.outcome.ok) throw new Error("addEdge was refused");
        const edgeKey = added.outcome.value.edge.key;
        counts.removeEdge = (await counted(() => service.edges.removeEdge(workflowId, edgeKey))).count;
        counts.removeNode = (await counted(() => service.nodes.removeNode(workflowId, "g2"))).count;
        expect(counts).toEqual({ addNode: 3, addNodePicked: 3, addEdge: 3, updateNode: 4, removeEdge: 3, removeNode: 3 });
      } finally {
        await prisma.$disconnect();
      }
    });
  },
  { modes: ["embedded"] },
);

describeEachDatabase("what an edit's statement reads and writes", (suite) => {
  it("picks a node id the way nextNodeId does: one above the highest <type>-<n> with up to nine digits", async () => {
    const keys = ["generation-1", "generation-0012", "generation-x", "generation-1234567890", "ensemble-40"];
    const start = arrows(["in->out"]);
    start.nodes.push(...keys.map((key) => ({ id: key, type: key.split("-")[0]!, provider: "offline", model: "echo" })));
    const workflowId = await seedWorkflow(suite.db(), start);
    const service = new WorkflowService({ db: suite.db().prisma, registry, llm });
    const added = await service.nodes.addNode(workflowId, { type: "generation", provider: "offline", model: "echo" });
    expect(added.ok && added.value.node.key).toBe(nextNodeId("generation", ["in", "out", ...keys]));
    expect(added.ok && added.value.node.key).toBe("generation-13");
  });

  it("refuses a new edge to a missing node, and a second one to an output, writing nothing", async () => {
    // in ──▶ out ◀── g1 ?   (MULTIPLE_PRE)     in ──▶ nowhere ?   (NOT_FOUND)
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->out", "g1"]));
    const service = new WorkflowService({ db: suite.db().prisma, registry, llm });
    const before = await service.getGraph(workflowId);
    const missing = await service.edges.addEdge(workflowId, "in", "nowhere");
    expect(!missing.ok && missing.errors.map((error) => [error.code, error.nodeIds])).toEqual([["NOT_FOUND", ["nowhere"]]]);
    const second = await service.edges.addEdge(workflowId, "g1", "out");
    expect(!second.ok && second.errors.map((error) => error.code)).toEqual(["MULTIPLE_PRE"]);
    expect(await service.getGraph(workflowId)).toEqual(before);
    const row = await suite.db().prisma.workflow.findUniqueOrThrow({ where: { id: workflowId } });
    expect(row.lastEdgeNumber).toBe(1);
  });
});

describeEachDatabase(
  "an edit queued on the row lock",
  (suite) => {
    it("sees a run of the draft started while it waited, and is refused with LOCKED_WHILE_RUNNING", async () => {
      // in ──▶ g1 ──▶ out: a run start holds the lock and adds its run; addEdge in ──▶ g2 waits for it
      const db = suite.db();
      const workflowId = await seedWorkflow(db, arrows(["in->g1->out", "g2"]));
      const service = new WorkflowService({ db: db.prisma, registry, llm });
      let edit: ReturnType<typeof service.edges.addEdge> | undefined;
      const started = await withLockedDraft(db.prisma, workflowId, async (tx) => {
        const run = await tx.run.create({ data: { workflowId, status: "QUEUED", request: {}, snapshot: {} } });
        edit = service.edges.addEdge(workflowId, "in", "g2");
        await waitForLockWaiter(db.raw);
        return run.id;
      });
      expect(started.ok).toBe(true);
      const refused = await edit!;
      expect(!refused.ok && refused.errors.map((error) => error.code)).toEqual(["LOCKED_WHILE_RUNNING"]);
      expect((await service.getGraph(workflowId)).edges.map((edge) => [edge.source, edge.target])).toEqual([["in", "g1"], ["g1", "out"]]);
    });
  },
  { modes: ["server"] },
);

/** Until another session of this database waits for a lock (the edit, queued on the workflow's row). */
async function waitForLockWaiter(raw: { query<Row>(sql: string): Promise<{ rows: Row[] }> }): Promise<void> {
  for (let attempt = 0; attempt < 3_000; attempt += 1) {
    const { rows } = await raw.query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if ((rows[0]?.waiting ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("no session waited for the workflow's row lock");
}
