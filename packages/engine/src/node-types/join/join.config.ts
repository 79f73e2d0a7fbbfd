import { z } from "zod";
import { nodeConfig } from "../../registry/node-config.schema.js";

export const joinConfig = nodeConfig({
  mode: z
    .enum(["all", "first"])
    .optional()
    .meta({ description: "all (default): waits for every input that can still arrive; first: goes on with the first.", default: "all" }),
  combine: z
    .enum(["concat", "array", "object"])
    .optional()
    .meta({ description: "concat (default): texts joined by a blank line; array: values in edge order; object: values by source node id.", default: "concat" }),
});
