import { z } from "zod";
import { kind, knowledgeBaseField, nodeConfig } from "../../registry/node-config.schema.js";

export const EXPAND_DEFAULTS = { window: 1 } as const;
export const EXPAND_MAX_WINDOW = 20;

export const expandConfig = nodeConfig({
  window: z
    .number()
    .int()
    .min(0)
    .max(EXPAND_MAX_WINDOW)
    .optional()
    .meta({ description: "Neighbouring chunks added on each side of every chunk, from the same document.", default: EXPAND_DEFAULTS.window }),
  knowledgeBase: knowledgeBaseField.meta(kind("knowledgeBase", "Knowledge base of chunks that do not say where they came from; default: the run's.")),
});
