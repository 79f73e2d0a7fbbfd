import { describe, expect, it } from "vitest";
import { graphFromRows, nodeCreateData, nodeFromRow, promptsFromJson, toEdgeObject, toNodeObject } from "./workflow.mapper.js";

const row = (key: string, type: string, extra: Partial<Parameters<typeof nodeFromRow>[0]> = {}) => ({
  key,
  type,
  content: null,
  provider: null,
  model: null,
  params: null,
  prompt: null,
  positionX: 1,
  positionY: 2,
  ...extra,
});

describe("workflow mapper", () => {
  it("leaves absent attributes out of the engine node and keeps them null for GraphQL", () => {
    const generation = row("g1", "generation", { provider: "offline", model: "echo", params: { temperature: 0.2 } });
    expect(nodeFromRow(generation)).toEqual({
      id: "g1",
      type: "generation",
      provider: "offline",
      model: "echo",
      params: { temperature: 0.2 },
      position: { x: 1, y: 2 },
    });
    expect(toNodeObject(generation)).toMatchObject({ id: "g1", content: null, prompt: null, position: { x: 1, y: 2 } });
  });

  it("orders edges by creation position, which is the order a node's inputs are joined in", () => {
    // in ──▶ e1 ◀── g1   (edge b created before edge a)
    const edges = [
      { key: "a", source: "in", target: "e1", position: 7 },
      { key: "b", source: "g1", target: "e1", position: 3 },
    ];
    expect(graphFromRows([row("in", "input"), row("g1", "generation"), row("e1", "ensemble")], edges).edges.map((edge) => edge.id)).toEqual(["b", "a"]);
    expect(toEdgeObject(edges[0]!)).toEqual({ id: "a", source: "in", target: "e1", order: 7 });
  });

  it("reads prompts from JSON, ignoring anything that is not text", () => {
    expect(promptsFromJson({ generation: "g", ensemble: 3, validation: null })).toEqual({ generation: "g" });
    expect(promptsFromJson(["not", "an", "object"])).toEqual({});
  });

  it("stores absent attributes as NULL and a missing position at the origin", () => {
    expect(nodeCreateData("w", { id: "in", type: "input", content: "hi" })).toMatchObject({
      workflowId: "w",
      key: "in",
      content: "hi",
      provider: null,
      model: null,
      prompt: null,
      positionX: 0,
      positionY: 0,
    });
  });
});
