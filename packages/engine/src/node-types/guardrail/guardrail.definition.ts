import { modelNodeAttributes } from "../../registry/node-attributes.schema.js";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { configStrings, fixedPorts } from "../common/router-ports.js";
import { TOOL_SHAPE } from "../common/tool-node-shape.js";
import { guardrailConfig, GUARDRAIL_PORTS } from "./guardrail.config.js";
import { executeGuardrailNode } from "./guardrail.executor.js";

export const GUARDRAIL_NODE_TYPE: NodeTypeDefinition = {
  ...TOOL_SHAPE,
  type: "guardrail",
  label: "guardrail",
  component: "RouterNode",
  description: "Checks its input by length, keywords, patterns and optionally a model: pass (unchanged) or blocked {reason}.",
  inDegree: { min: 1, max: 1 },
  usesModel: false,
  attributes: modelNodeAttributes,
  config: guardrailConfig,
  patterns: (node) => configStrings(node, "patterns").map((source, k) => ({ field: `patterns[${k}]`, source })),
  router: fixedPorts(GUARDRAIL_PORTS),
  execute: executeGuardrailNode,
};
