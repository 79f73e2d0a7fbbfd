import { checkAddEdge, checkRemoveNode, createBuiltInRegistry, OfflineLlmProvider, seededRandom, shuffle, type WorkflowGraph } from "@weft/engine";
import { expect, it } from "vitest";
import { seedWorkflow } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { arrows } from "../../testing/workflows.js";
import { WorkflowService } from "./workflow.service.js";

/** A fixed shuffle (the engine's seeded generator), so the walk through the edits is the same on every run. */
const shuffled = <T>(items: readonly T[], seed: number): T[] => shuffle(seededRandom(seed), items);

const plain = (violations: { code: string; message: string; nodeIds: string[]; edgeIds: string[] }[]) =>
  violations.map(({ code, message, nodeIds, edgeIds }) => ({ code, message, nodeIds, edgeIds }));

describeEachDatabase(
  "edits checked against indexed neighbourhoods",
  (suite) => {
    it("give exactly the engine's answer on the whole graph, for every edge a user could try to add", async () => {
      // in1 ─► g1 ─► v1 ─► e1 ─► out      in3 ─► e2      v2   e3
      // in2 ─► g2 ──────────┘
      const start = arrows(["in1->g1->v1->e1->out", "in2->g2->e1", "in3->e2", "v2", "e3"]);
      const workflowId = await seedWorkflow(suite.db(), start);
      const registry = createBuiltInRegistry();
      const service = new WorkflowService({ db: suite.db().prisma, registry, llm: new Map([["offline", new OfflineLlmProvider()]]) });
      const graph: WorkflowGraph = { nodes: start.nodes.map(({ id, type }) => ({ id, type })), edges: [...start.edges] };
      const ids = graph.nodes.map((node) => node.id);
      const pairs = shuffled(ids.flatMap((source) => ids.map((target) => [source, target] as const)), 7);
      let accepted = 0;
      const seen = new Set<string>();
      for (const [source, target] of pairs) {
        const expected = plain(checkAddEdge(graph, source, target, { registry }));
        for (const violation of expected) seen.add(violation.code);
        const outcome = await service.edges.addEdge(workflowId, source, target);
        expect({ source, target, violations: outcome.ok ? [] : plain(outcome.errors) }).toEqual({ source, target, violations: expected });
        if (outcome.ok) {
          accepted += 1;
          graph.edges.push({ id: outcome.value.edge.key, source, target });
        }
      }
      expect(accepted).toBeGreaterThan(3);
      // The walk meets every edit-time rule, the cycle check through the target's descendants included.
      expect([...seen].sort()).toEqual(["CYCLE", "DUPLICATE_EDGE", "INPUT_HAS_PRE", "MULTIPLE_POST", "MULTIPLE_PRE", "OUTPUT_HAS_POST", "SELF_LOOP", "TYPE_PAIR_FORBIDDEN"]);
      for (const nodeId of ids) {
        const expected = plain(checkRemoveNode(graph, nodeId, { registry }));
        if (expected.length === 0) continue;
        const outcome = await service.nodes.removeNode(workflowId, nodeId);
        expect({ nodeId, violations: outcome.ok ? [] : plain(outcome.errors) }).toEqual({ nodeId, violations: expected });
      }
    }, 120_000);
  },
  { modes: ["embedded"] },
);
