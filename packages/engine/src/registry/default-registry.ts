import { executeModelNode } from "../execute/model-node.executor.js";
import { executeTextNode } from "../execute/text-node.executor.js";
import { modelNodeAttributes, textNodeAttributes } from "./node-attributes.schema.js";
import { NodeTypeRegistry } from "./node-type-registry.js";
import type { NodeTypeSpec } from "./node-type-spec.js";

/** The node types of SPEC §2. Neighbour lists and degree limits are the spec's table, verbatim. */

const MODEL_SOURCES = ["input", "generation", "ensemble", "validation"] as const;

export const INPUT_NODE_SPEC: NodeTypeSpec = {
  type: "input",
  label: "input",
  component: "TextNode",
  accepts: [],
  feeds: ["generation", "ensemble", "validation", "output"],
  inDegree: { min: 0, max: 0 },
  outDegree: { min: 1, max: Infinity },
  count: { min: 1, max: Infinity, code: "INPUT_REQUIRED" },
  usesModel: false,
  attributes: textNodeAttributes,
  execute: executeTextNode,
};

export const GENERATION_NODE_SPEC: NodeTypeSpec = {
  type: "generation",
  label: "generation",
  component: "ModelNode",
  accepts: ["input"],
  feeds: ["ensemble", "validation", "output"],
  inDegree: { min: 1, max: 1 },
  outDegree: { min: 1, max: 1 },
  usesModel: true,
  attributes: modelNodeAttributes,
  execute: executeModelNode,
};

export const ENSEMBLE_NODE_SPEC: NodeTypeSpec = {
  type: "ensemble",
  label: "ensemble",
  component: "ModelNode",
  accepts: MODEL_SOURCES,
  feeds: ["ensemble", "validation", "output"],
  inDegree: { min: 1, max: Infinity },
  outDegree: { min: 1, max: 1 },
  usesModel: true,
  attributes: modelNodeAttributes,
  execute: executeModelNode,
};

export const VALIDATION_NODE_SPEC: NodeTypeSpec = {
  type: "validation",
  label: "validation",
  component: "ModelNode",
  accepts: MODEL_SOURCES,
  feeds: ["validation", "ensemble", "output"],
  inDegree: { min: 1, max: 1 },
  outDegree: { min: 1, max: 1 },
  usesModel: true,
  attributes: modelNodeAttributes,
  execute: executeModelNode,
};

export const OUTPUT_NODE_SPEC: NodeTypeSpec = {
  type: "output",
  label: "output",
  component: "TextNode",
  accepts: MODEL_SOURCES,
  feeds: [],
  inDegree: { min: 1, max: 1 },
  outDegree: { min: 0, max: 0 },
  count: { min: 1, max: 1, code: "OUTPUT_UNIQUE" },
  usesModel: false,
  attributes: textNodeAttributes,
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
