import { z } from "zod";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { TOOL_SHAPE } from "../common/tool-node-shape.js";
import { expandConfig } from "./expand.config.js";
import { executeExpandNode } from "./expand.executor.js";

export const EXPAND_NODE_TYPE: NodeTypeDefinition = {
  ...TOOL_SHAPE,
  type: "expand",
  label: "expand",
  description: "Adds each chunk's neighbours (±window by position in its document) to a chunk list.",
  usesModel: false,
  attributes: z.strictObject({}),
  config: expandConfig,
  execute: executeExpandNode,
};
