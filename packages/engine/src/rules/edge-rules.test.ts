import { describe, expect, it } from "vitest";
import type { Workflow, WorkflowEdge } from "../model/workflow.js";
import { builtInRegistry } from "../node-types/built-in-node-types.js";
import { seededRandom } from "../random/seeded-random.js";
import { validateWorkflow } from "./validate-workflow.js";

/**
 * A switch fanning out to joins by many edges, some repeated (same port, same target):
 *
 *   q ─► route ─[c0 … c{n-1}]─► j0 … j3 ─► j ─► out
 *
 * Rows of up to 16 edges are grouped pair by pair, longer ones through a map; either way the
 * DUPLICATE_EDGE violations are the groups of edges sharing source, port and target (in the order of
 * their first edge), and every join counts each distinct (pre-node, port) once.
 */
function fan(random: () => number, edgeCount: number): Workflow {
  const ports = Array.from({ length: 1 + Math.floor(random() * 6) }, (_v, k) => `c${k}`);
  const edges: WorkflowEdge[] = [{ id: "in", source: "q", target: "route" }];
  for (const port of ports) edges.push({ id: `first-${port}`, source: "route", sourcePort: port, target: "j0" });
  for (let k = 1; k < 4; k += 1) edges.push({ id: `first-j${k}`, source: "route", sourcePort: "c0", target: `j${k}` });
  for (let k = ports.length; k < edgeCount; k += 1) {
    edges.push({ id: `f${k}`, source: "route", sourcePort: ports[Math.floor(random() * ports.length)]!, target: `j${Math.floor(random() * 4)}` });
  }
  for (let k = 0; k < 4; k += 1) edges.push({ id: `to-j-${k}`, source: `j${k}`, target: "j" });
  edges.push({ id: "out", source: "j", target: "out" });
  return {
    name: "fan",
    prompts: {},
    outputFormat: "",
    nodes: [
      { id: "q", type: "input", content: "" },
      { id: "route", type: "switch", config: { cases: ports.map((port) => ({ port, when: "true" })) } },
      ...[0, 1, 2, 3].map((k) => ({ id: `j${k}`, type: "join" })),
      { id: "j", type: "join" },
      { id: "out", type: "output" },
    ],
    edges,
  };
}

/** The groups of repeated edges by their definition: same port and target, groups in order of their first edge. */
function repeatedGroups(workflow: Workflow): string[][] {
  const groups = new Map<string, string[]>();
  for (const edge of workflow.edges) {
    const key = `${edge.source} ${edge.sourcePort ?? "out"} ${edge.target}`;
    groups.set(key, [...(groups.get(key) ?? []), edge.id]);
  }
  return [...groups.values()].filter((ids) => ids.length > 1);
}

describe("DUPLICATE_EDGE over long and short rows", () => {
  it("reports each group of repeated edges once, whether the row is grouped pair by pair or by a map", () => {
    const random = seededRandom(14);
    for (const edgeCount of [2, 5, 15, 16, 17, 18, 40, 120]) {
      for (let trial = 0; trial < 20; trial += 1) {
        const workflow = fan(random, edgeCount);
        const violations = validateWorkflow(workflow, { registry: builtInRegistry });
        const duplicates = violations.filter((violation) => violation.code === "DUPLICATE_EDGE").map((violation) => violation.edgeIds);
        expect(duplicates, `${edgeCount} edges, trial ${trial}`).toEqual(repeatedGroups(workflow));
        expect(violations.filter((violation) => violation.code !== "DUPLICATE_EDGE")).toEqual([]);
      }
    }
  });
});
