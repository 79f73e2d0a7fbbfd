import { act, renderHook } from "@testing-library/react";
import type { WorkflowGraph } from "@weft/engine";
import { describe, expect, it } from "vitest";
import { useConnectionRules } from "./use-connection-rules";

/*
 *   in ──▶ gen ──▶ ens ──▶ out
 *   in2
 */
const graph: WorkflowGraph = {
  nodes: [
    { id: "in", type: "input", content: "q" },
    { id: "in2", type: "input", content: "q2" },
    { id: "gen", type: "generation" },
    { id: "ens", type: "ensemble" },
    { id: "out", type: "output" },
  ],
  edges: [
    { id: "e1", source: "in", target: "gen" },
    { id: "e2", source: "gen", target: "ens" },
    { id: "e3", source: "ens", target: "out" },
  ],
};

const render = (locked = false) => renderHook(({ g, l }) => useConnectionRules(() => g, l), { initialProps: { g: graph, l: locked } });

describe("useConnectionRules", () => {
  it("refuses ensemble → generation and says why", () => {
    const { result } = render();
    let allowed = true;
    act(() => {
      allowed = result.current.isValidConnection({ source: "ens", target: "gen" });
    });
    expect(allowed).toBe(false);
    // gen already has its one pre-node, and generation takes only input: the first reason is reported.
    expect(result.current.refusal?.code).toMatch(/MULTIPLE_PRE|TYPE_PAIR_FORBIDDEN/);
    expect(result.current.refusal?.message).toContain("generation");
  });

  it("reports TYPE_PAIR_FORBIDDEN for ensemble → generation when the degree allows it", () => {
    const loose: WorkflowGraph = { ...graph, edges: [] };
    const { result } = renderHook(() => useConnectionRules(() => loose, false));
    act(() => void result.current.isValidConnection({ source: "ens", target: "gen" }));
    expect(result.current.refusal?.code).toBe("TYPE_PAIR_FORBIDDEN");
  });

  it("allows input → ensemble, a second pre-node of an ensemble", () => {
    const { result } = render();
    let allowed = false;
    act(() => {
      allowed = result.current.isValidConnection({ source: "in2", target: "ens" });
    });
    expect(allowed).toBe(true);
    expect(result.current.refusal).toBeNull();
  });

  it("refuses a connection into an input node", () => {
    const { result } = render();
    act(() => void result.current.isValidConnection({ source: "gen", target: "in2" }));
    expect(result.current.refusal?.code).toBe("INPUT_HAS_PRE");
  });

  it("refuses every connection while a run is active", () => {
    const { result } = render(true);
    act(() => void result.current.isValidConnection({ source: "in2", target: "ens" }));
    expect(result.current.refusal?.code).toBe("LOCKED_WHILE_RUNNING");
  });

  it("keeps the same callback across renders and forgets the refusal once taken", () => {
    const { result, rerender } = render();
    const first = result.current.isValidConnection;
    act(() => void result.current.isValidConnection({ source: "ens", target: "gen" }));
    rerender({ g: graph, l: false });
    expect(result.current.isValidConnection).toBe(first);
    let taken = null as ReturnType<typeof result.current.takeRefusal>;
    act(() => {
      taken = result.current.takeRefusal();
    });
    expect(taken?.nodeIds).toContain("gen");
    expect(result.current.refusal).toBeNull();
  });
});
