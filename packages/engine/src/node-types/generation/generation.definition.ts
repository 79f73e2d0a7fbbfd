import { modelNodeAttributes } from "../../registry/node-attributes.schema.js";
import { seedNodeConfig } from "../../registry/node-config.schema.js";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { executeModelNode } from "../common/model-node.executor.js";

/** SPEC §2: exactly one pre-node, an input; exactly one post-node. */
export const GENERATION_NODE_TYPE: NodeTypeDefinition = {
  type: "generation",
  label: "generation",
  description: "A model call fed by an input node, with the workflow's generation prompt.",
  component: "ModelNode",
  accepts: ["input"],
  feeds: ["ensemble", "validation", "output"],
  feedsAnyExcept: ["input", "generation"],
  inDegree: { min: 1, max: 1 },
  outDegree: { min: 1, max: 1 },
  usesModel: true,
  attributes: modelNodeAttributes,
  config: seedNodeConfig,
  execute: executeModelNode,
};
