import { z } from "zod";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { fixedPorts } from "../common/router-ports.js";
import { celField, TOOL_SHAPE } from "../common/tool-node-shape.js";
import { cacheLookupConfig, CACHE_LOOKUP_PORTS } from "./cache-lookup.config.js";
import { executeCacheLookupNode } from "./cache-lookup.executor.js";

export const CACHE_LOOKUP_NODE_TYPE: NodeTypeDefinition = {
  ...TOOL_SHAPE,
  type: "cache_lookup",
  label: "cache lookup",
  component: "RouterNode",
  description: "Looks its input up in a semantic cache: hit (the cached answer) or miss (the input, unchanged).",
  inDegree: { min: 1, max: 1 },
  usesModel: false,
  attributes: z.strictObject({}),
  config: cacheLookupConfig,
  router: fixedPorts(CACHE_LOOKUP_PORTS),
  expressions: celField("query", "value"),
  execute: executeCacheLookupNode,
};
