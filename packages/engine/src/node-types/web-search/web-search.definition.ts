import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { celField, TOOL_SHAPE } from "../common/tool-node-shape.js";
import { webSearchAttributes, webSearchConfig } from "./web-search.config.js";
import { executeWebSearchNode } from "./web-search.executor.js";

export const WEB_SEARCH_NODE_TYPE: NodeTypeDefinition = {
  ...TOOL_SHAPE,
  type: "web_search",
  label: "web search",
  description: "Searches the web (the offline fixture corpus, or Tavily) with its input; outputs the pages as chunks with URLs.",
  usesModel: false,
  attributes: webSearchAttributes,
  config: webSearchConfig,
  expressions: celField("query", "value"),
  execute: executeWebSearchNode,
};
