import { jsonText, type JsonObject } from "../../model/json-value.js";
import { openModelCall } from "../common/model-call.js";
import { emptyNodeDetails, NodeFailure, type PartialNodeDetails } from "../../registry/node-failure.js";
import { isAbortError, WeftError } from "../../model/errors.js";
import type { NodeExecutionContext, NodeExecutor } from "../../registry/node-type-definition.js";
import { renderNodePrompt } from "../common/node-prompt.js";
import { configValue } from "../common/router-ports.js";
import { callForJson } from "../common/structured-reply.js";
import { readChunks, toScoredChunk, type ChunkValue } from "../common/chunk-value.js";
import { RERANK_DEFAULTS, RERANK_REPLY_SCHEMA } from "./rerank.config.js";
import { expressionText, runQuestion } from "../common/tool-inputs.js";

export const DEFAULT_RERANK_PROMPT = "Rank the passages by how well they help answer the query.";
const INSTRUCTION = 'Reply with one JSON object and nothing else: {"order": [<passage indices, most relevant first>]}';

/**
 * LLM reranking (SPEC-V2 §6): the first `maxCandidates` chunks are shown to the model, numbered, with
 * the query; its reply `{order: [indices]}` is validated (whole numbers in range, each once; indices
 * it leaves out follow in their original order) and the first `topN` are kept, with `rank`. A reply
 * that cannot be used keeps the original order with a RERANK_REPLY_UNUSABLE warning.
 */
export const executeRerankNode: NodeExecutor = async (context) => {
  const { node } = context;
  const details = emptyNodeDetails(context.inputs);
  try {
    const { chunks, others } = readChunks(context.values);
    const candidates = chunks.slice(0, configValue<number>(node, "maxCandidates", RERANK_DEFAULTS.maxCandidates));
    const topN = configValue<number>(node, "topN", RERANK_DEFAULTS.topN);
    if (candidates.length === 0) return { description: "nothing to rerank", output: [], details };
    const query = expressionText(context, "query") ?? (others.length > 0 ? others.map(jsonText).join("\n") : runQuestion(context));
    const order = await rankedOrder(context, candidates, query, details);
    const output = order.slice(0, topN).map((index, rank) => ({ ...(candidates[index] as ChunkValue), rank: rank + 1 }));
    details.context = output.map(toScoredChunk);
    return { description: `the ${output.length} most relevant of ${candidates.length} chunks`, output, details };
  } catch (error) {
    throw NodeFailure.wrap(error, details);
  }
};

async function rankedOrder(context: NodeExecutionContext, candidates: readonly ChunkValue[], query: string, details: PartialNodeDetails): Promise<number[]> {
  const call = openModelCall(context, details);
  const passages = candidates.map((chunk, index) => `[${index}] ${chunk.text}`).join("\n\n");
  const prompt = `${renderNodePrompt(context, context.node.prompt ?? DEFAULT_RERANK_PROMPT, null)}\n\nQuery: ${query}\n\nPassages:\n${passages}\n\n${INSTRUCTION}`;
  details.renderedPrompt = prompt;
  const original = candidates.map((_, index) => index);
  let reply: JsonObject;
  try {
    reply = (await callForJson(context, call.provider, call.request(prompt, query), RERANK_REPLY_SCHEMA, details)) as JsonObject;
  } catch (error) {
    if (isAbortError(error) || !(error instanceof WeftError) || !["RESULT_PARSE_ERROR", "SCHEMA_MISMATCH"].includes(error.code)) throw error;
    return unusable(context, original, error.message);
  }
  const indices = reply.order as number[];
  const bad = indices.find((index, at) => !Number.isInteger(index) || index < 0 || index >= candidates.length || indices.indexOf(index) !== at);
  if (bad !== undefined) return unusable(context, original, `index ${bad} is out of range or repeated (${candidates.length} passages)`);
  if (indices.length === 0) return unusable(context, original, "the order is empty");
  return [...indices, ...original.filter((index) => !indices.includes(index))];
}

function unusable(context: NodeExecutionContext, original: number[], why: string): number[] {
  context.emit({ type: "WARNING", nodeId: context.node.id, code: "RERANK_REPLY_UNUSABLE", message: `kept the original order: ${why}` });
  return original;
}
