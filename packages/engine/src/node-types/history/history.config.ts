import { z } from "zod";
import { THREAD_LIMITS } from "../../providers/thread-history.js";
import { nodeConfig } from "../../registry/node-config.schema.js";

export const HISTORY_FORMATS = ["transcript", "messages"] as const;
export type HistoryFormat = (typeof HISTORY_FORMATS)[number];

export const HISTORY_DEFAULTS = { maxMessages: 20, format: "transcript" } as const;

export const historyConfig = nodeConfig({
  maxMessages: z
    .number()
    .int()
    .min(1)
    .max(THREAD_LIMITS.maxHistoryMessages)
    .optional()
    .meta({ description: "The thread's latest messages read (a question and its answer are two).", default: HISTORY_DEFAULTS.maxMessages }),
  maxTokens: z
    .number()
    .int()
    .min(1)
    .max(THREAD_LIMITS.maxHistoryTokens)
    .optional()
    .meta({ description: "Only as many of the newest messages as fit this many tokens (characters ÷ 4); default: no token limit." }),
  format: z
    .enum(HISTORY_FORMATS)
    .optional()
    .meta({ description: "transcript: `User: …` / `Assistant: …` paragraphs, for prompts; messages: a list of {role, content}.", default: HISTORY_DEFAULTS.format }),
});
