import { modelNodeAttributes } from "../../registry/node-attributes.schema.js";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { schemaPatterns } from "../../schema/json-schema.check.js";
import { PIPELINE_NEIGHBOURS } from "../common/pipeline-neighbours.js";
import { toolRules } from "../common/tools/tool-rules.js";
import { agentConfig } from "./agent.config.js";
import { executeAgentNode } from "./agent.executor.js";

export const AGENT_NODE_TYPE: NodeTypeDefinition = {
  type: "agent",
  label: "agent",
  component: "ModelNode",
  description: "A model that calls tools — HTTP APIs, published workflows, MCP servers, knowledge bases — step by step until it has a final answer.",
  ...PIPELINE_NEIGHBOURS,
  inDegree: { min: 1, max: Infinity },
  outDegree: { min: 1, max: Infinity },
  usesModel: true,
  workflowPrompt: false,
  attributes: modelNodeAttributes,
  config: agentConfig,
  defaultConfig: { tools: [], maxSteps: 8 },
  patterns: (node) => schemaPatterns(node.config?.["schema"], "schema"),
  configRules: (node) => toolRules(node.config?.["tools"], "tools"),
  execute: executeAgentNode,
};
