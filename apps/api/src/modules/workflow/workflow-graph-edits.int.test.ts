import { beforeEach, expect, it } from "vitest";
import { createBuiltInRegistry, OfflineLlmProvider, type LlmProviders } from "@weft/engine";
import type { Database } from "../../db/db.js";
import { describeEachDatabase } from "../../testing/database.js";
import { WorkflowService } from "./workflow.service.js";
import { runWorkflowEdit } from "./workflow-edit.transaction.js";
import { refuse } from "../../errors/refusal.js";
import { userError } from "../../errors/user-error.type.js";

/**
 * The workflow services straight on both databases (no HTTP): edits, refusals that leave the database
 * unchanged, rollback, and concurrent edits queued on the row lock.
 */

let database: Database;
let service: WorkflowService;

async function newWorkflow(name = "wf"): Promise<string> {
  const created = await service.create({ name });
  if (!created.ok) throw new Error(JSON.stringify(created.errors));
  return created.value.id;
}

function model(type: string, id: string) {
  return { type, id, provider: "offline", model: "echo" };
}

describeEachDatabase("workflow services", (suite) => {
  beforeEach(() => {
    database = suite.db();
    const llm: LlmProviders = new Map([["offline", new OfflineLlmProvider()]]);
    service = new WorkflowService({ db: database.prisma, registry: createBuiltInRegistry(), llm });
  });

  it("starts a new workflow with one input connected to one output and the default prompts", async () => {
    const id = await newWorkflow();
    const workflow = await service.get(id);
    expect(workflow?.graph?.nodes.map((node) => [node.id, node.type])).toEqual([
      ["input-1", "input"],
      ["output-1", "output"],
    ]);
    expect(workflow?.graph?.edges).toEqual([{ id: "e1", source: "input-1", target: "output-1", sourcePort: "out", loop: null, order: 1 }]);
    for (const prompt of Object.values(workflow?.prompts ?? {})) {
      expect(prompt).toContain("{input_data}");
      expect(prompt).toContain("{context}");
      expect(prompt).toContain("{output_format}");
    }
    expect(await service.validate(id)).toEqual([]);
  });

  it("builds input → generation → output and keeps edge creation order", async () => {
    // input-1 ──> g1 ──> output-1   (the original input-1 → output-1 edge removed first)
    const id = await newWorkflow();
    expect((await service.edges.removeEdge(id, "e1")).ok).toBe(true);
    expect((await service.nodes.addNode(id, model("generation", "g1"))).ok).toBe(true);
    const first = await service.edges.addEdge(id, "input-1", "g1");
    const second = await service.edges.addEdge(id, "g1", "output-1");
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect(second.value.edge.position).toBeGreaterThan(first.value.edge.position);
    expect(second.value.workflow.version).toBe(5);
    expect(await service.validate(id)).toEqual([]);
  });

  it("refuses a second pre-node of the output and changes nothing", async () => {
    // input-1 ──> output-1 <── g1 ?   (refused: MULTIPLE_PRE)
    const id = await newWorkflow();
    await service.nodes.addNode(id, model("generation", "g1"));
    const before = await service.get(id);
    const refused = await service.edges.addEdge(id, "g1", "output-1");
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.errors.map((error) => error.code)).toContain("MULTIPLE_PRE");
    expect(await service.get(id)).toEqual(before);
  });

  it("serialises concurrent edge additions so only one second pre-node of an ensemble-free target wins", async () => {
    // i1 ──> g1, i1 ──> g2 ; then g1 → v1 and g2 → v1 raced: v1 takes exactly one pre-node
    const id = await newWorkflow();
    await service.nodes.addNode(id, model("generation", "g1"));
    await service.nodes.addNode(id, model("generation", "g2"));
    await service.nodes.addNode(id, model("validation", "v1"));
    await service.edges.addEdge(id, "input-1", "g1");
    await service.edges.addEdge(id, "input-1", "g2");
    const results = await Promise.all([service.edges.addEdge(id, "g1", "v1"), service.edges.addEdge(id, "g2", "v1")]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    const loser = results.find((result) => !result.ok);
    expect(loser && !loser.ok && loser.errors[0]?.code).toBe("MULTIPLE_PRE");
    const graph = await service.getGraph(id);
    expect(graph.edges.filter((edge) => edge.target === "v1")).toHaveLength(1);
  });

  it("exports a document that imports back to the same document", async () => {
    const id = await newWorkflow("round trip");
    await service.nodes.addNode(id, { ...model("generation", "g1"), params: { temperature: 0.2 }, prompt: "p {input_data}" });
    await service.edges.removeEdge(id, "e1");
    await service.edges.addEdge(id, "input-1", "g1");
    await service.edges.addEdge(id, "g1", "output-1");
    const text = await service.documents.export(id);
    const imported = await service.documents.import(text);
    expect(imported.ok).toBe(true);
    if (!imported.ok) return;
    expect(await service.documents.export(imported.value)).toBe(text);
  });

  it("rolls back whatever an edit wrote before it refused", async () => {
    const id = await newWorkflow();
    const before = await service.get(id);
    const outcome = await runWorkflowEdit(database.prisma, id, async (tx) => {
      await tx.workflowEdge.deleteMany({ where: { workflowId: id } });
      refuse(userError("CONFLICT", "changed my mind"));
    });
    expect(outcome).toMatchObject({ ok: false, errors: [{ code: "CONFLICT" }] });
    expect(await service.get(id)).toEqual(before);
  });
});
