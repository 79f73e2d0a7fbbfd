import type { JsonValue } from "@weft/engine";
import { describe, expect, it } from "vitest";
import { allNodeIds, freshNodeId, portsOf, readBody, writeBody } from "./body-graph";

describe("a map's body as the body editor holds it", () => {
  //   body: item (input) ──▶ answer (llm) ──▶ result (output)
  const config = {
    items: "input.questions",
    body: {
      nodes: [
        { id: "item", type: "input" },
        { id: "answer", type: "llm", provider: "offline", model: "echo", writes: "notes" },
        { id: "result", type: "output" },
      ],
      edges: [
        { source: "item", target: "answer" },
        { id: "b2", source: "answer", target: "result" },
      ],
    },
  } as unknown as Record<string, JsonValue>;

  it("reads the body, giving edges without an id one, and writes it back with the other fields kept", () => {
    const body = readBody(config);
    expect(body.edges.map((edge) => edge.id)).toEqual(["e1", "b2"]);
    // A document writes a type's own fields flat on the node; the engine keeps them in config.
    expect(body.nodes[1]).toEqual({ id: "answer", type: "llm", provider: "offline", model: "echo", config: { writes: "notes" } });
    expect((writeBody(config, body).body as { nodes: unknown[] }).nodes[1]).toEqual({ id: "answer", type: "llm", provider: "offline", model: "echo", writes: "notes" });
    const written = writeBody(config, { ...body, nodes: body.nodes.slice(0, 2) });
    expect(written.items).toBe("input.questions");
    expect((written.body as { nodes: unknown[] }).nodes).toHaveLength(2);
  });

  it("reads an absent or malformed body as an empty graph", () => {
    expect(readBody(undefined)).toEqual({ nodes: [], edges: [] });
    expect(readBody({ body: { nodes: [{ id: 3 }], edges: "x" } })).toEqual({ nodes: [], edges: [] });
  });

  it("finds ids unused across the workflow and its bodies", () => {
    const workflow = { nodes: [{ id: "llm-1", type: "llm" }, { id: "perQuestion", type: "map", config }], edges: [] };
    const taken = allNodeIds(workflow);
    expect([...taken].sort()).toEqual(["answer", "item", "llm-1", "perQuestion", "result"]);
    expect(freshNodeId("llm", taken)).toBe("llm-2");
  });

  it("gives a router the ports its config declares", () => {
    expect(portsOf({ id: "route", type: "switch", config: { cases: [{ port: "short", when: "true" }] } })).toEqual(["short", "default"]);
    expect(portsOf({ id: "answer", type: "llm" })).toEqual(["out"]);
  });
});
