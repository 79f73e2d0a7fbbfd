import { describe, expect, it } from "vitest";
import { Prisma } from "../../generated/prisma/client.js";
import { settingsColumns, settingsFromRow, toSettingsObjects } from "./workflow-settings.mapper.js";
import { edgeCreateData, edgeFromRow, graphFromRows, nodeCreateData, nodeFromRow, promptsFromJson, toEdgeObject, toNodeObject } from "./workflow.mapper.js";

const row = (key: string, type: string, extra: Partial<Parameters<typeof nodeFromRow>[0]> = {}) => ({
  key,
  type,
  content: null,
  provider: null,
  model: null,
  params: null,
  prompt: null,
  config: null,
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
      { key: "a", source: "in", target: "e1", sourcePort: null, loop: null, position: 7 },
      { key: "b", source: "g1", target: "e1", sourcePort: null, loop: null, position: 3 },
    ];
    expect(graphFromRows([row("in", "input"), row("g1", "generation"), row("e1", "ensemble")], edges).edges.map((edge) => edge.id)).toEqual(["b", "a"]);
    expect(toEdgeObject(edges[0]!)).toEqual({ id: "a", source: "in", target: "e1", sourcePort: "out", loop: null, order: 7 });
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

  it("keeps a node's type fields as its config, and stores none as NULL", () => {
    const cases = [{ port: "short", when: "size(input) < 10" }];
    const router = row("route", "switch", { config: { cases, mode: "first" } });
    expect(nodeFromRow(router)).toMatchObject({ id: "route", type: "switch", config: { cases, mode: "first" } });
    expect(toNodeObject(router).config).toEqual({ cases, mode: "first" });
    expect(nodeFromRow(row("t", "template", { config: {} }))).not.toHaveProperty("config");
    expect(nodeCreateData("w", { id: "in", type: "input" }).config).toBe(Prisma.DbNull);
  });

  /**
   * check ─[pass]──▶ out
   *   └──[retry, loop regen]──▶ draft
   */
  it("maps ports and loop edges both ways; the port `out` is stored as NULL, its meaning", () => {
    const stored = edgeCreateData("w", [
      { id: "p", source: "check", sourcePort: "pass", target: "out" },
      { id: "r", source: "check", sourcePort: "retry", target: "draft", loop: "regen" },
      { id: "o", source: "draft", sourcePort: "out", target: "check" },
    ]);
    expect(stored.map((edge) => [edge.key, edge.sourcePort, edge.loop])).toEqual([["p", "pass", null], ["r", "retry", "regen"], ["o", null, null]]);
    const rowOf = (edge: (typeof stored)[number]) => ({ key: edge.key, source: edge.source, target: edge.target, sourcePort: edge.sourcePort ?? null, loop: edge.loop ?? null, position: edge.position });
    expect(stored.map((edge) => edgeFromRow(rowOf(edge)))).toEqual([
      { id: "p", source: "check", sourcePort: "pass", target: "out" },
      { id: "r", source: "check", sourcePort: "retry", target: "draft", loop: "regen" },
      { id: "o", source: "draft", target: "check" },
    ]);
    expect(toEdgeObject(rowOf(stored[2]!))).toMatchObject({ sourcePort: "out", loop: null });
  });

  it("treats absent, empty and NULL settings alike, so a workflow that declares nothing stays v1", () => {
    expect(settingsFromRow({ loops: null, state: {}, limits: {} })).toEqual({});
    expect(settingsColumns({ loops: [], state: {} })).toEqual({ loops: Prisma.DbNull, state: Prisma.DbNull, limits: Prisma.DbNull });
    const settings = {
      loops: [{ id: "regen", max: 3, exit: "pass" }, { id: "open", exit: null }],
      state: { drafts: { reducer: "append" as const }, seen: { reducer: "appendUnique" as const, key: "id", scope: "thread" as const } },
      limits: { maxInvocations: 50, maxCostUsd: 2.5 },
    };
    const columns = settingsColumns(settings);
    expect(settingsFromRow(columns as unknown as Parameters<typeof settingsFromRow>[0])).toEqual(settings);
    expect(toSettingsObjects(settings)).toEqual({
      loops: [{ id: "regen", max: 3, exit: "pass" }, { id: "open", max: null, exit: null }],
      state: [
        { name: "drafts", reducer: "append", key: null, scope: "run" },
        { name: "seen", reducer: "appendUnique", key: "id", scope: "thread" },
      ],
      limits: { maxInvocations: 50, maxCostUsd: 2.5 },
    });
  });
});
