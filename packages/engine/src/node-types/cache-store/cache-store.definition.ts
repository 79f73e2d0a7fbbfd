import { z } from "zod";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { celField, TOOL_SHAPE } from "../common/tool-node-shape.js";
import { cacheStoreConfig } from "./cache-store.config.js";
import { executeCacheStoreNode } from "./cache-store.executor.js";

export const CACHE_STORE_NODE_TYPE: NodeTypeDefinition = {
  ...TOOL_SHAPE,
  type: "cache_store",
  label: "cache store",
  description: "Stores its input as the answer to the run's question in a semantic cache, and passes it on.",
  usesModel: false,
  attributes: z.strictObject({}),
  config: cacheStoreConfig,
  expressions: celField("query", "value"),
  execute: executeCacheStoreNode,
};
