import { z } from "zod";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { bodyOf } from "../common/body-graph.js";
import { PIPELINE_NEIGHBOURS } from "../common/pipeline-neighbours.js";
import { subgraphConfig } from "./subgraph.config.js";
import { executeSubgraphNode } from "./subgraph.executor.js";

export const SUBGRAPH_NODE_TYPE: NodeTypeDefinition = {
  type: "subgraph",
  label: "subgraph",
  component: "SubgraphNode",
  description: "Runs an inline graph as one node: its input goes to the body's input node, the body's output is its output.",
  ...PIPELINE_NEIGHBOURS,
  inDegree: { min: 1, max: 1 },
  outDegree: { min: 1, max: Infinity },
  usesModel: false,
  attributes: z.strictObject({}),
  config: subgraphConfig,
  // The smallest body: its input goes straight through (ids are renamed by an editor when taken).
  defaultConfig: { body: { nodes: [{ id: "subgraph_input", type: "input" }, { id: "subgraph_output", type: "output" }], edges: [{ id: "e1", source: "subgraph_input", target: "subgraph_output" }] } },
  body: { graph: bodyOf, runsPerInvocation: () => 1, parallelRuns: () => 1, itemScope: false },
  execute: executeSubgraphNode,
};
