import { modelNodeAttributes } from "../../registry/node-attributes.schema.js";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { classifyConfig } from "./classify.config.js";
import { executeClassifyNode } from "./classify.executor.js";
import { configStrings, DEFAULT_ROUTE } from "../common/router-ports.js";
import { PIPELINE_NEIGHBOURS } from "../common/pipeline-neighbours.js";

export const CLASSIFY_NODE_TYPE: NodeTypeDefinition = {
  type: "classify",
  label: "classify",
  component: "RouterNode",
  description: "A model picks one of the labels; the input passes through to that label's port (default when the reply names none).",
  ...PIPELINE_NEIGHBOURS,
  inDegree: { min: 1, max: 1 },
  outDegree: { min: 1, max: Infinity },
  usesModel: true,
  workflowPrompt: false,
  attributes: modelNodeAttributes,
  config: classifyConfig,
  defaultConfig: { labels: ["yes", "no"] },
  router: {
    portsField: "labels",
    ports: (node) => [...configStrings(node, "labels"), DEFAULT_ROUTE],
    requiredPorts: (node) => configStrings(node, "labels"),
    exclusive: () => true,
  },
  execute: executeClassifyNode,
};
