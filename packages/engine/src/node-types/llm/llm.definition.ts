import { modelNodeAttributes } from "../../registry/node-attributes.schema.js";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { schemaPatterns } from "../../schema/json-schema.check.js";
import { llmConfig } from "./llm.config.js";
import { executeLlmNode } from "./llm.executor.js";
import { PIPELINE_NEIGHBOURS } from "../common/pipeline-neighbours.js";

export const LLM_NODE_TYPE: NodeTypeDefinition = {
  type: "llm",
  label: "llm",
  component: "ModelNode",
  description: "A general model call: its prompt template over any inputs; with a schema, a JSON reply validated against it.",
  ...PIPELINE_NEIGHBOURS,
  inDegree: { min: 1, max: Infinity },
  outDegree: { min: 1, max: Infinity },
  usesModel: true,
  workflowPrompt: false,
  attributes: modelNodeAttributes,
  config: llmConfig,
  patterns: (node) => schemaPatterns(node.config?.schema, "schema"),
  execute: executeLlmNode,
};
