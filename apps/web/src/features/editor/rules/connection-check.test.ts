import { describe, expect, it } from "vitest";
import { checkConnection, freshLoopId } from "./connection-check";
import type { ValidatedGraph } from "./edit-registry";

/*
 *   in ──▶ draft (llm) ──▶ check (grade) ──pass──▶ out
 *                              │ retry, fail: not connected yet
 */
const graph: ValidatedGraph = {
  nodes: [
    { id: "in", type: "input", content: "q" },
    { id: "draft", type: "llm", provider: "offline", model: "echo" },
    { id: "check", type: "grade", provider: "offline", model: "echo" },
    { id: "out", type: "output" },
  ],
  edges: [
    { id: "e1", source: "in", target: "draft" },
    { id: "e2", source: "draft", target: "check" },
    { id: "e3", source: "check", target: "out", sourcePort: "pass" },
  ],
};

describe("checking a connection drawn on the canvas", () => {
  it("allows a data edge from a router's port", () => {
    const result = checkConnection({ ...graph, edges: graph.edges.slice(0, 2) }, { source: "check", target: "out", sourceHandle: "pass" });
    expect(result).toEqual({ ok: true, plan: { kind: "edge", source: "check", target: "out", sourcePort: "pass" } });
  });

  it("offers a new loop for an edge back from a router's port to a node upstream", () => {
    //   check ──retry──▶ draft   would be a cycle of data edges: as a loop edge it is allowed
    const result = checkConnection(graph, { source: "check", target: "draft", sourceHandle: "retry" });
    expect(result).toEqual({ ok: true, plan: { kind: "loop", source: "check", target: "draft", sourcePort: "retry", loop: "loop", declared: false } });
  });

  it("adds an edge to a loop already declared with the same header", () => {
    const looped: ValidatedGraph = {
      ...graph,
      loops: [{ id: "loop", max: 3, exit: null }],
      edges: [...graph.edges, { id: "e4", source: "check", target: "draft", sourcePort: "retry", loop: "loop" }],
    };
    const result = checkConnection(looped, { source: "check", target: "draft", sourceHandle: "fail" });
    expect(result).toMatchObject({ ok: true, plan: { kind: "loop", loop: "loop", declared: true } });
    expect(freshLoopId(looped)).toBe("loop2");
  });

  it("refuses a cycle that leaves an ordinary node, with the rules' reason", () => {
    //   out is a sink; draft → in would feed an input node: the first reason is the engine's
    const result = checkConnection(graph, { source: "draft", target: "in" });
    expect(result).toMatchObject({ ok: false, violation: { code: "INPUT_HAS_PRE" } });
  });

  it("ignores a connection that is not finished or names unknown nodes", () => {
    expect(checkConnection(graph, { source: "draft", target: null })).toEqual({ ok: false, violation: null });
    expect(checkConnection(graph, { source: "ghost", target: "out" })).toEqual({ ok: false, violation: null });
  });
});
