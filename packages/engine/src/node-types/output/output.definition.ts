import { textNodeAttributes } from "../../registry/node-attributes.schema.js";
import { seedNodeConfig } from "../../registry/node-config.schema.js";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { executeTextNode } from "../common/text-node.executor.js";
import { SEED_MODEL_SOURCES } from "../common/seed-neighbours.js";

/** SPEC §2: exactly one pre-node (any type but output), no post-node, exactly one per workflow. */
export const OUTPUT_NODE_TYPE: NodeTypeDefinition = {
  type: "output",
  label: "output",
  description: "The run's result: its pre-node's output.",
  component: "TextNode",
  accepts: SEED_MODEL_SOURCES,
  acceptsAnyExcept: ["output"],
  feeds: [],
  inDegree: { min: 1, max: 1 },
  outDegree: { min: 0, max: 0 },
  count: { min: 1, max: 1, code: "OUTPUT_UNIQUE" },
  usesModel: false,
  attributes: textNodeAttributes,
  config: seedNodeConfig,
  execute: executeTextNode,
};
