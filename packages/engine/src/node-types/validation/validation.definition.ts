import { modelNodeAttributes } from "../../registry/node-attributes.schema.js";
import { seedNodeConfig } from "../../registry/node-config.schema.js";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { executeModelNode } from "../common/model-node.executor.js";
import { SEED_MODEL_SOURCES } from "../common/seed-neighbours.js";

/** SPEC §2: exactly one pre-node and one post-node. */
export const VALIDATION_NODE_TYPE: NodeTypeDefinition = {
  type: "validation",
  label: "validation",
  description: "A model call that checks an answer and returns a corrected one.",
  component: "ModelNode",
  accepts: SEED_MODEL_SOURCES,
  feeds: ["validation", "ensemble", "output"],
  feedsAnyExcept: ["input", "generation"],
  inDegree: { min: 1, max: 1 },
  outDegree: { min: 1, max: 1 },
  usesModel: true,
  attributes: modelNodeAttributes,
  config: seedNodeConfig,
  execute: executeModelNode,
};
