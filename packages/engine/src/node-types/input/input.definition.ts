import { textNodeAttributes } from "../../registry/node-attributes.schema.js";
import { seedNodeConfig } from "../../registry/node-config.schema.js";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { executeTextNode } from "../common/text-node.executor.js";

/** SPEC §2: no pre-node, at least one post-node, at least one per workflow. */
export const INPUT_NODE_TYPE: NodeTypeDefinition = {
  type: "input",
  label: "input",
  description: "Text that starts the workflow: its content, or what the run supplies for it.",
  component: "TextNode",
  accepts: [],
  feeds: ["generation", "ensemble", "validation", "output"],
  feedsAnyExcept: ["input"],
  inDegree: { min: 0, max: 0 },
  outDegree: { min: 1, max: Infinity },
  count: { min: 1, max: Infinity, code: "INPUT_REQUIRED" },
  usesModel: false,
  attributes: textNodeAttributes,
  config: seedNodeConfig,
  execute: executeTextNode,
};
