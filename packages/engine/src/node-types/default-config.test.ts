import { describe, expect, it } from "vitest";
import { checkNodeConfig } from "../document/node-config.check.js";
import type { WorkflowGraph, WorkflowNode } from "../model/workflow.js";
import { describeNodeType } from "../registry/node-type-catalogue.js";
import { checkEdit } from "../rules/edit-rules.js";
import { builtInRegistry } from "./built-in-node-types.js";

//   question ─▶ answer      (the graph each new node joins, unconnected, as the palette adds it)
const graph: WorkflowGraph = {
  nodes: [
    { id: "question", type: "input", content: "q" },
    { id: "answer", type: "output" },
  ],
  edges: [{ id: "e1", source: "question", target: "answer" }],
};

describe("every node type's default config", () => {
  const types = builtInRegistry.types().filter((type) => builtInRegistry.require(type).count?.max !== 1);

  it.each(types)("lets a new %s node be added as it is: its config schema and the edit-time rules take it", (type) => {
    const description = describeNodeType(builtInRegistry.require(type));
    const config = description.defaultConfig ?? {};
    const node: WorkflowNode = { id: "fresh", type, ...(Object.keys(config).length > 0 ? { config } : {}) };
    expect(checkNodeConfig(node, { registry: builtInRegistry })).toEqual([]);
    const withNode = { ...graph, nodes: [...graph.nodes, { id: "fresh", type }] };
    expect(checkEdit(withNode, { kind: "updateNode", nodeId: "fresh", node }, { registry: builtInRegistry })).toEqual([]);
  });

  it("is given by every type whose config has a required field, so none is added unconfigured", () => {
    for (const type of builtInRegistry.types()) {
      const description = describeNodeType(builtInRegistry.require(type));
      const required = (description.configSchema.required as string[] | undefined) ?? [];
      if (required.length > 0) expect(Object.keys(description.defaultConfig ?? {}), type).toEqual(expect.arrayContaining(required));
    }
  });

  it("is a copy: changing a description's default leaves the type's own alone", () => {
    const first = describeNodeType(builtInRegistry.require("template"));
    (first.defaultConfig as Record<string, unknown>).template = "changed";
    expect(describeNodeType(builtInRegistry.require("template")).defaultConfig).toEqual({ template: "{input}" });
  });
});
