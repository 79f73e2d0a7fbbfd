import { emptyNodeDetails, NodeFailure } from "../../registry/node-failure.js";
import type { NodeExecutor } from "../../registry/node-type-definition.js";
import { joinValues } from "../../template/node-template.js";
import { configValue } from "../common/router-ports.js";
import { CACHE_LOOKUP_DEFAULTS } from "./cache-lookup.config.js";
import { nodeCache } from "../common/cache-scope.js";
import { expressionText, inputText } from "../common/tool-inputs.js";

/**
 * Semantic cache lookup (SPEC-V2 §6): embeds its input and finds the nearest cached question of its
 * scope. Similarity ≥ threshold: `hit`, carrying the cached answer (CACHE_HIT {similarity}); otherwise
 * `miss`, passing the input through (CACHE_MISS).
 */
export const executeCacheLookupNode: NodeExecutor = async (context) => {
  const details = emptyNodeDetails(context.inputs);
  try {
    const passThrough = joinValues(context.values) ?? null;
    const cached = nodeCache(context);
    const question = expressionText(context, "query") ?? inputText(context);
    const hit = cached ? await cached.cache.lookup(cached.scope, question, configValue<number>(context.node, "threshold", CACHE_LOOKUP_DEFAULTS.threshold), context.signal) : null;
    details.store = cached?.cache.store ?? null;
    if (hit) {
      context.emit({ type: "CACHE_HIT", nodeId: context.node.id, similarity: hit.similarity });
      const output = { hit: true, similarity: hit.similarity, question: hit.entry.query, answer: hit.entry.answer };
      return { description: `cache hit (similarity ${hit.similarity.toFixed(3)})`, output, value: hit.entry.answer, ports: ["hit"], details };
    }
    if (cached) context.emit({ type: "CACHE_MISS", nodeId: context.node.id });
    return { description: "cache miss", output: { hit: false }, value: passThrough, ports: ["miss"], details };
  } catch (error) {
    throw NodeFailure.wrap(error, details);
  }
};
