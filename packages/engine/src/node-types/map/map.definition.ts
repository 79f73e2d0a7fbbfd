import { z } from "zod";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { bodyOf } from "../common/body-graph.js";
import { MAP_DEFAULTS, mapConfig } from "./map.config.js";
import { executeMapNode } from "./map.executor.js";
import { configValue } from "../common/router-ports.js";
import { PIPELINE_NEIGHBOURS } from "../common/pipeline-neighbours.js";

export const MAP_NODE_TYPE: NodeTypeDefinition = {
  type: "map",
  label: "map",
  component: "MapNode",
  description: "Runs its body once per item of a list, in parallel up to its concurrency; outputs the results in item order.",
  ...PIPELINE_NEIGHBOURS,
  inDegree: { min: 1, max: 1 },
  outDegree: { min: 1, max: Infinity },
  usesModel: false,
  attributes: z.strictObject({}),
  config: mapConfig,
  // The smallest body: each item goes straight through (ids are renamed by an editor when taken).
  defaultConfig: { body: { nodes: [{ id: "map_item", type: "input" }, { id: "map_result", type: "output" }], edges: [{ id: "e1", source: "map_item", target: "map_result" }] } },
  body: {
    graph: bodyOf,
    runsPerInvocation: (node) => configValue(node, "maxItems", MAP_DEFAULTS.maxItems),
    parallelRuns: (node) => configValue(node, "concurrency", MAP_DEFAULTS.concurrency),
    itemScope: true,
  },
  expressions: (node) => [{ field: "items", source: configValue(node, "items", MAP_DEFAULTS.items), kind: "list" }],
  execute: executeMapNode,
};
