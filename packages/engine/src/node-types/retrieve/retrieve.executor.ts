import { WeftError } from "../../model/errors.js";
import { emptyNodeDetails, NodeFailure } from "../../registry/node-failure.js";
import type { ChunkFilter } from "../../providers/chunk-filter.js";
import type { NodeExecutionContext, NodeExecutor } from "../../registry/node-type-definition.js";
import { configValue } from "../common/router-ports.js";
import { chunkValue } from "../common/chunk-value.js";
import { RETRIEVE_DEFAULTS, RETRIEVE_MAX_QUERIES } from "./retrieve.config.js";
import { inputText, textsOf, toolUnavailable } from "../common/tool-inputs.js";

/**
 * Searches a knowledge base (SPEC-V2 §6): one query (the input) or several (`queries`, or an input
 * that is a list of texts), with the node's filter and alpha; output = the merged chunks, best first.
 */
export const executeRetrieveNode: NodeExecutor = async (context) => {
  const { node } = context;
  const details = emptyNodeDetails(context.inputs);
  try {
    const search = context.tools.knowledgeBases;
    if (!search) throw toolUnavailable("KNOWLEDGE_BASES_UNAVAILABLE", "knowledge-base search");
    const knowledgeBase = knowledgeBaseOf(context);
    const queries = queryTexts(context);
    const filter = configValue<ChunkFilter | null>(node, "filter", null);
    const alpha = configValue<number | null>(node, "alpha", null);
    const query = { queries, topK: configValue<number>(node, "topK", RETRIEVE_DEFAULTS.topK), ...(filter ? { filter } : {}), ...(alpha === null ? {} : { alpha }) };
    const result = await search.search(knowledgeBase, query, context.signal);
    const minScore = configValue<number>(node, "minScore", 0);
    const kept = result.chunks.filter((chunk) => chunk.score >= minScore);
    details.context = kept;
    details.store = result.store;
    const output = kept.map((chunk) => chunkValue(chunk, { knowledgeBase }));
    const asked = queries.length === 1 ? "1 query" : `${queries.length} queries`;
    const dropped = result.chunks.length - kept.length;
    const below = dropped > 0 ? `; ${dropped} under ${minScore} dropped` : "";
    return { description: `${output.length} chunks from ${knowledgeBase} (${asked}, ${result.store}${below})`, output, details };
  } catch (error) {
    throw NodeFailure.wrap(error, details);
  }
};

export function knowledgeBaseOf(context: NodeExecutionContext): string {
  const name = configValue<string | null>(context.node, "knowledgeBase", context.settings.knowledgeBase);
  if (!name) {
    throw new WeftError("KNOWLEDGE_BASE_REQUIRED", `node "${context.node.id}" names no knowledge base, and the run has none`);
  }
  return name;
}

function queryTexts(context: NodeExecutionContext): string[] {
  const listed = typeof context.node.config?.queries === "string" ? textsOf(context.evaluate("queries")) : defaultQueries(context);
  if (listed.length <= RETRIEVE_MAX_QUERIES) return listed;
  context.emit({
    type: "WARNING",
    nodeId: context.node.id,
    code: "RETRIEVE_QUERIES_TRUNCATED",
    message: `${listed.length} queries were given; the first ${RETRIEVE_MAX_QUERIES} were searched`,
  });
  return listed.slice(0, RETRIEVE_MAX_QUERIES);
}

/** A single input that is a list of texts is several queries; anything else is one query. */
function defaultQueries(context: NodeExecutionContext): string[] {
  const [only] = context.values;
  if (context.values.length === 1 && Array.isArray(only) && only.every((item) => typeof item === "string")) return textsOf(only);
  const text = inputText(context);
  return text.trim() === "" ? [] : [text];
}
