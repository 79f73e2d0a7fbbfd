import { emptyNodeDetails, NodeFailure } from "../../registry/node-failure.js";
import type { NodeExecutor } from "../../registry/node-type-definition.js";
import { joinValues } from "../../template/node-template.js";
import { configValue } from "../common/router-ports.js";
import { nodeCache } from "../common/cache-scope.js";
import { expressionText, runQuestion } from "../common/tool-inputs.js";

/**
 * Stores `{question → answer}` in the semantic cache (SPEC-V2 §6) and passes its input through. The
 * answer is the node's input; the question is `query` (CEL) or the run's input, which is what a
 * `cache_lookup` fed by the input node looks up.
 */
export const executeCacheStoreNode: NodeExecutor = async (context) => {
  const details = emptyNodeDetails(context.inputs);
  try {
    const answer = joinValues(context.values) ?? null;
    const cached = nodeCache(context);
    if (!cached) return { description: "not stored: no cache service", output: answer, details };
    details.store = cached.cache.store;
    const question = expressionText(context, "query") ?? runQuestion(context);
    if (question.trim() === "") {
      context.emit({ type: "WARNING", nodeId: context.node.id, code: "CACHE_NOTHING_TO_STORE", message: "the question is empty; nothing was stored" });
      return { description: "not stored: empty question", output: answer, details };
    }
    const ttlSeconds = configValue<number | null>(context.node, "ttlSeconds", null);
    await cached.cache.save(cached.scope, question, answer, ttlSeconds, context.signal);
    return { description: ttlSeconds === null ? "stored" : `stored for ${ttlSeconds} s`, output: answer, details };
  } catch (error) {
    throw NodeFailure.wrap(error, details);
  }
};
