import { modelNodeAttributes } from "../../registry/node-attributes.schema.js";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { celField, TOOL_SHAPE } from "../common/tool-node-shape.js";
import { rerankConfig } from "./rerank.config.js";
import { executeRerankNode } from "./rerank.executor.js";

export const RERANK_NODE_TYPE: NodeTypeDefinition = {
  ...TOOL_SHAPE,
  type: "rerank",
  label: "rerank",
  component: "ModelNode",
  description: "A model orders a chunk list by relevance to the query and keeps the best; a reply it cannot use keeps the original order.",
  usesModel: true,
  workflowPrompt: false,
  attributes: modelNodeAttributes,
  config: rerankConfig,
  expressions: celField("query", "value"),
  execute: executeRerankNode,
};
