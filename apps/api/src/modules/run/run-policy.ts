import { availableModelsOf, type LlmProviders, type RunPolicy } from "@weft/engine";
import { topKByIntensity, type Env } from "../../env.js";

/** What this server decides about every run it prepares, read once from its environment and providers (the registry is passed beside it). */
export function runPolicyOf(env: Env, llm: LlmProviders): Omit<RunPolicy, "registry"> {
  return {
    models: availableModelsOf(llm),
    topK: topKByIntensity(env),
    parseRepair: env.WEFT_PARSE_REPAIR,
    concurrency: env.WEFT_RUN_CONCURRENCY,
    limits: {
      maxValueDepth: env.WEFT_MAX_VALUE_DEPTH,
      maxNodeOutputBytes: env.WEFT_MAX_NODE_OUTPUT_BYTES,
      maxRunBytes: env.WEFT_MAX_RUN_BYTES,
      maxExpressionCost: env.WEFT_MAX_EXPRESSION_COST,
    },
  };
}
