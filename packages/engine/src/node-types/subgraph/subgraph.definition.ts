import { z } from "zod";
import { WeftError } from "../../model/errors.js";
import { emptyNodeDetails } from "../../registry/node-failure.js";
import { nodeConfig } from "../../registry/node-config.schema.js";
import type { NodeExecutor, NodeTypeSpec } from "../../registry/node-type-definition.js";
import { joinValues } from "../../template/node-template.js";
import { bodyField, bodyOf } from "../common/body-graph.js";
import { PIPELINE_NEIGHBOURS } from "../common/pipeline-neighbours.js";

export const subgraphConfig = nodeConfig({ body: bodyField });

/** Runs the body once with the node's input; the body's output is the node's (SPEC-V2 §3). */
export const executeSubgraphNode: NodeExecutor = async (context) => {
  const result = await context.runBody({ segment: context.node.id, input: joinValues(context.values) ?? null });
  if (!result.ok) {
    throw new WeftError("SUBGRAPH_FAILED", `the body of subgraph "${context.node.id}" failed: ${result.error.code}: ${result.error.message}`, {
      details: { error: result.error },
    });
  }
  return { description: "ran its body", output: result.value, details: emptyNodeDetails(context.inputs) };
};

export const SUBGRAPH_NODE_SPEC: NodeTypeSpec = {
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
