import { z } from "zod";
import { celExpression, kind, nodeConfig } from "../../registry/node-config.schema.js";
import { bodyField } from "../common/body-graph.js";

export const MAP_DEFAULTS = { items: "input", concurrency: 4, maxItems: 100, onItemError: "fail" } as const;
export const MAP_MAX_CONCURRENCY = 64;
export const MAP_MAX_ITEMS = 10_000;

export const mapConfig = nodeConfig({
  items: celExpression.optional().meta(kind("celList", "CEL list of the items; default: the input (which must then be a list).", { default: MAP_DEFAULTS.items })),
  body: bodyField,
  concurrency: z
    .number()
    .int()
    .min(1)
    .max(MAP_MAX_CONCURRENCY)
    .optional()
    .meta({ description: "Items whose body runs at once.", default: MAP_DEFAULTS.concurrency }),
  maxItems: z
    .number()
    .int()
    .min(1)
    .max(MAP_MAX_ITEMS)
    .optional()
    .meta({ description: "More items than this fail the node (MAP_TOO_MANY_ITEMS); also the budget's bound.", default: MAP_DEFAULTS.maxItems }),
  onItemError: z
    .enum(["fail", "skip"])
    .optional()
    .meta({ description: "fail (default): a failed item fails the node; skip: it is left out of the output with a warning.", default: MAP_DEFAULTS.onItemError }),
});
