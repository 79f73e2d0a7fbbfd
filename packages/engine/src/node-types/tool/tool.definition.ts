import { z } from "zod";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { TOOL_SHAPE } from "../common/tool-node-shape.js";
import { argumentExpressions, toolNodeConfig } from "./tool.config.js";
import { executeToolNode } from "./tool.executor.js";

export const TOOL_NODE_TYPE: NodeTypeDefinition = {
  type: "tool",
  label: "tool",
  description: "Calls one tool — a published workflow, an MCP server's tool, a knowledge base — with arguments from a template or CEL, without a model.",
  ...TOOL_SHAPE,
  usesModel: false,
  attributes: z.strictObject({}),
  config: toolNodeConfig,
  defaultConfig: { tool: { type: "retrieve", knowledgeBase: "docs" }, arguments: { query: "input" } },
  expressions: argumentExpressions,
  execute: executeToolNode,
};
