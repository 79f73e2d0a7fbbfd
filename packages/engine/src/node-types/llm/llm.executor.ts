import { jsonText, type JsonValue } from "../../model/json-value.js";
import { emptyNodeDetails, NodeFailure, type PartialNodeDetails } from "../../registry/node-failure.js";
import { callModel, openModelCall } from "../common/model-call.js";
import { retrieveContext } from "../common/model-node.executor.js";
import type { LlmProvider, LlmRequest } from "../../providers/llm-provider.js";
import type { RetrievalResult } from "../../providers/retrieval.js";
import type { NodeExecutionContext, NodeExecutor } from "../../registry/node-type-definition.js";
import { joinValues } from "../../template/node-template.js";
import { configValue } from "../common/router-ports.js";
import { nodeCache } from "../common/cache-scope.js";
import { renderNodePrompt } from "../common/node-prompt.js";
import { callForJson } from "../common/structured-reply.js";

/** An `llm` node without a prompt sends its input as it is. */
export const DEFAULT_LLM_PROMPT = "{input}";

/**
 * A general model call (SPEC-V2 §3): the prompt rendered from the node's template, knowledge-base
 * context when the prompt asks for `{context}`, then either the reply as text, or with `schema` the
 * reply as a JSON value that matches it (one repair).
 */
export const executeLlmNode: NodeExecutor = async (context) => {
  const { node } = context;
  const details = emptyNodeDetails(context.inputs);
  try {
    const call = openModelCall(context, details);
    const template = node.prompt ?? DEFAULT_LLM_PROMPT;
    const inputText = jsonText(joinValues(context.values) ?? "");
    const retrieval = template.includes("{context}") ? await retrieve(context, inputText) : null;
    details.context = retrieval?.chunks ?? [];
    details.store = retrieval?.store ?? null;
    const prompt = renderNodePrompt(context, template, retrieval);
    details.renderedPrompt = prompt;
    const cache = await cachedReply(context, prompt);
    if (cache?.hit) return { description: `a cached reply (similarity ${cache.hit.similarity.toFixed(3)})`, output: cache.hit.entry.answer, details };
    const request = call.request(prompt, inputText, false);
    const schema = node.config?.schema;
    const output: JsonValue = schema !== undefined ? await callForJson(context, call.provider, request, schema, details) : await callText(context, call.provider, request, details);
    await cache?.save(output);
    const description = schema !== undefined ? "a reply that matches the node's schema" : `a reply of ${String(output).length} characters`;
    return { description, output, details };
  } catch (error) {
    throw NodeFailure.wrap(error, details);
  }
};

function retrieve(context: NodeExecutionContext, query: string): Promise<RetrievalResult | null> {
  const knowledgeBase = configValue<string | null>(context.node, "knowledgeBase", context.settings.knowledgeBase);
  const intensity = configValue<string | null>(context.node, "intensity", null);
  // The host's table (WEFT_TOPK_* in the API), not the defaults: the node's intensity means what the run's would.
  const topK = intensity === "LOW" || intensity === "MEDIUM" || intensity === "HIGH" ? context.settings.topKByIntensity[intensity] : context.settings.topK;
  return retrieveContext(context, query, knowledgeBase, topK);
}

async function callText(context: NodeExecutionContext, provider: LlmProvider, request: LlmRequest, details: PartialNodeDetails): Promise<JsonValue> {
  await callModel(context, provider, request, details);
  return details.rawReply ?? "";
}

/**
 * `cache` on an llm node (SPEC-V2 §6): the rendered prompt is looked up in the node's own cache of the
 * workflow version (CACHE_HIT / CACHE_MISS); after a miss, `save` stores the reply with the node's ttl.
 */
async function cachedReply(context: NodeExecutionContext, prompt: string) {
  const settings = configValue<{ threshold: number; ttlSeconds?: number } | null>(context.node, "cache", null);
  if (settings === null) return null;
  const cached = nodeCache(context, { perNode: true });
  if (!cached) return null;
  const hit = await cached.cache.lookup(cached.scope, prompt, settings.threshold, context.signal);
  if (hit) context.emit({ type: "CACHE_HIT", nodeId: context.node.id, similarity: hit.similarity });
  else context.emit({ type: "CACHE_MISS", nodeId: context.node.id });
  const save = async (answer: JsonValue) => {
    await cached.cache.save(cached.scope, prompt, answer, settings.ttlSeconds ?? null, context.signal);
  };
  return { hit, save };
}
