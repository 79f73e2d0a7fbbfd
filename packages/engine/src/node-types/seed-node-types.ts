import { executeModelNode } from "./common/model-node.executor.js";
import { executeTextNode } from "./common/text-node.executor.js";
import { modelNodeAttributes, textNodeAttributes } from "../registry/node-attributes.schema.js";
import { seedNodeConfig } from "../registry/node-config.schema.js";
import { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { NodeTypeSpec } from "../registry/node-type-definition.js";

/**
 * The node types of SPEC §2 (the seed profile). Neighbour lists and degree limits are the spec's table,
 * verbatim; in a registry that also holds the pipeline types, their post-node lists grow to include every
 * new type and the output accepts any type but output (SPEC-V2 §1), which `feedsAnyExcept` /
 * `acceptsAnyExcept` say without naming the new types.
 */

const MODEL_SOURCES = ["input", "generation", "ensemble", "validation"] as const;

export const INPUT_NODE_SPEC: NodeTypeSpec = {
  type: "input",
  label: "input",
  description: "Text that starts the workflow: its content, or what the run supplies for it.",
  component: "TextNode",
  profile: "seed",
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

export const GENERATION_NODE_SPEC: NodeTypeSpec = {
  type: "generation",
  label: "generation",
  description: "A model call fed by an input node, with the workflow's generation prompt.",
  component: "ModelNode",
  profile: "seed",
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

export const ENSEMBLE_NODE_SPEC: NodeTypeSpec = {
  type: "ensemble",
  label: "ensemble",
  description: "A model call that merges several answers into one.",
  component: "ModelNode",
  profile: "seed",
  accepts: MODEL_SOURCES,
  feeds: ["ensemble", "validation", "output"],
  feedsAnyExcept: ["input", "generation"],
  inDegree: { min: 1, max: Infinity },
  outDegree: { min: 1, max: 1 },
  usesModel: true,
  attributes: modelNodeAttributes,
  config: seedNodeConfig,
  execute: executeModelNode,
};

export const VALIDATION_NODE_SPEC: NodeTypeSpec = {
  type: "validation",
  label: "validation",
  description: "A model call that checks an answer and returns a corrected one.",
  component: "ModelNode",
  profile: "seed",
  accepts: MODEL_SOURCES,
  feeds: ["validation", "ensemble", "output"],
  feedsAnyExcept: ["input", "generation"],
  inDegree: { min: 1, max: 1 },
  outDegree: { min: 1, max: 1 },
  usesModel: true,
  attributes: modelNodeAttributes,
  config: seedNodeConfig,
  execute: executeModelNode,
};

export const OUTPUT_NODE_SPEC: NodeTypeSpec = {
  type: "output",
  label: "output",
  description: "The run's result: its pre-node's output.",
  component: "TextNode",
  profile: "seed",
  accepts: MODEL_SOURCES,
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

export const DEFAULT_NODE_TYPE_SPECS: readonly NodeTypeSpec[] = [
  INPUT_NODE_SPEC,
  GENERATION_NODE_SPEC,
  ENSEMBLE_NODE_SPEC,
  VALIDATION_NODE_SPEC,
  OUTPUT_NODE_SPEC,
];

/** A fresh registry of the built-in types; pass extra specs to extend it. */
export function createDefaultRegistry(extra: readonly NodeTypeSpec[] = []): NodeTypeRegistry {
  return new NodeTypeRegistry([...DEFAULT_NODE_TYPE_SPECS, ...extra]);
}

export const defaultRegistry: NodeTypeRegistry = createDefaultRegistry();
