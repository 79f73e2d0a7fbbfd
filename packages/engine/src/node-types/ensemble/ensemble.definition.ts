import { modelNodeAttributes } from "../../registry/node-attributes.schema.js";
import { seedNodeConfig } from "../../registry/node-config.schema.js";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { executeModelNode } from "../common/model-node.executor.js";
import { SEED_MODEL_SOURCES } from "../common/seed-neighbours.js";

/** SPEC §2: the only seed type with several pre-nodes; exactly one post-node. */
export const ENSEMBLE_NODE_TYPE: NodeTypeDefinition = {
  type: "ensemble",
  label: "ensemble",
  description: "A model call that merges several answers into one.",
  component: "ModelNode",
  accepts: SEED_MODEL_SOURCES,
  feeds: ["ensemble", "validation", "output"],
  feedsAnyExcept: ["input", "generation"],
  inDegree: { min: 1, max: Infinity },
  outDegree: { min: 1, max: 1 },
  usesModel: true,
  attributes: modelNodeAttributes,
  config: seedNodeConfig,
  execute: executeModelNode,
};
