import type { WorkflowGraph } from "@weft/engine";
import { describe, expect, it } from "vitest";
import { checkDeletion } from "./deletion-check";

/*
 *   in1 ──▶ gen ──▶ out
 *   in2 ──────────▶ (nothing)
 */
const graph: WorkflowGraph = {
  nodes: [
    { id: "in1", type: "input" },
    { id: "in2", type: "input" },
    { id: "gen", type: "generation" },
    { id: "out", type: "output" },
  ],
  edges: [
    { id: "e1", source: "in1", target: "gen" },
    { id: "e2", source: "gen", target: "out" },
  ],
};

describe("checkDeletion", () => {
  it("allows deleting one of two input nodes", () => {
    expect(checkDeletion(graph, { nodeIds: ["in2"], edgeIds: [] })).toEqual([]);
  });

  it("refuses deleting the last input node when both are deleted together", () => {
    const refusals = checkDeletion(graph, { nodeIds: ["in1", "in2"], edgeIds: ["e1"] });
    expect(refusals.map((v) => v.code)).toEqual(["INPUT_REQUIRED"]);
    expect(refusals[0]?.nodeIds).toEqual(["in2"]);
  });

  it("refuses deleting the output node", () => {
    expect(checkDeletion(graph, { nodeIds: ["out"], edgeIds: ["e2"] }).map((v) => v.code)).toEqual(["OUTPUT_UNIQUE"]);
  });

  it("allows deleting a model node with its edges", () => {
    expect(checkDeletion(graph, { nodeIds: ["gen"], edgeIds: ["e1", "e2"] })).toEqual([]);
  });

  it("refuses with one locked message while a run is active", () => {
    const refusals = checkDeletion(graph, { nodeIds: ["gen"], edgeIds: ["e1", "e2"] }, { locked: true });
    expect(refusals.map((v) => v.code)).toEqual(["LOCKED_WHILE_RUNNING"]);
  });
});
