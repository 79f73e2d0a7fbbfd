import { z } from "zod";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { celField, TOOL_SHAPE } from "../common/tool-node-shape.js";
import { retrieveConfig } from "./retrieve.config.js";
import { executeRetrieveNode } from "./retrieve.executor.js";

export const RETRIEVE_NODE_TYPE: NodeTypeDefinition = {
  ...TOOL_SHAPE,
  type: "retrieve",
  label: "retrieve",
  description: "Searches a knowledge base with its input (or several queries), filtered by metadata; outputs the chunks, best first.",
  usesModel: false,
  attributes: z.strictObject({}),
  config: retrieveConfig,
  expressions: celField("queries", "list"),
  execute: executeRetrieveNode,
};
