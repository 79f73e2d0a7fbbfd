import { z } from "zod";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { TOOL_SHAPE } from "../common/tool-node-shape.js";
import { historyConfig } from "./history.config.js";
import { executeHistoryNode } from "./history.executor.js";

export const HISTORY_NODE_TYPE: NodeTypeDefinition = {
  ...TOOL_SHAPE,
  type: "history",
  label: "history",
  description: "The thread's recent messages (maxMessages, maxTokens) as a value for prompts; its inputs only start it.",
  usesModel: false,
  usesThread: true,
  attributes: z.strictObject({}),
  config: historyConfig,
  execute: executeHistoryNode,
};
