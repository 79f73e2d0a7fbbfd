import { z } from "zod";
import { modelNodeAttributes } from "../registry/node-attributes.schema.js";
import type { NodeExpression, NodeTypeSpec } from "../registry/node-type-definition.js";
import type { WorkflowNode } from "../model/workflow.js";
import { configStrings } from "./common/router-ports.js";
import { cacheLookupConfig, cacheStoreConfig, CACHE_PORTS } from "./cache-lookup/cache-lookup.config.js";
import { executeCacheLookupNode } from "./cache-lookup/cache-lookup.executor.js";
import { executeCacheStoreNode } from "./cache-store/cache-store.executor.js";
import { expandConfig } from "./expand/expand.config.js";
import { executeExpandNode } from "./expand/expand.executor.js";
import { historyConfig } from "./history/history.config.js";
import { executeHistoryNode } from "./history/history.executor.js";
import { guardrailConfig, GUARDRAIL_PORTS } from "./guardrail/guardrail.config.js";
import { executeGuardrailNode } from "./guardrail/guardrail.executor.js";
import { rerankConfig } from "./rerank/rerank.config.js";
import { executeRerankNode } from "./rerank/rerank.executor.js";
import { retrieveConfig } from "./retrieve/retrieve.config.js";
import { executeRetrieveNode } from "./retrieve/retrieve.executor.js";
import { webSearchAttributes, webSearchConfig } from "./web-search/web-search.config.js";
import { executeWebSearchNode } from "./web-search/web-search.executor.js";

/** Neighbours and degrees every tool node shares: any type but output in, anything out. */
const TOOL_SHAPE = {
  component: "ToolNode",
  accepts: [],
  acceptsAnyExcept: ["output"],
  feeds: [],
  feedsAnyExcept: [],
  inDegree: { min: 1, max: Infinity },
  outDegree: { min: 1, max: Infinity },
} as const satisfies Partial<NodeTypeSpec>;

/** A CEL field of the config, when the node has it. */
function celField(field: string, kind: NodeExpression["kind"]) {
  return (node: WorkflowNode): NodeExpression[] => {
    const source = node.config?.[field];
    return typeof source === "string" ? [{ field, source, kind }] : [];
  };
}

const fixedPorts = (ports: readonly string[]) => ({ ports: () => ports, requiredPorts: () => [], exclusive: () => true });

export const RETRIEVE_NODE_SPEC: NodeTypeSpec = {
  ...TOOL_SHAPE,
  type: "retrieve",
  label: "retrieve",
  description: "Searches a knowledge base with its input (or several queries), filtered by metadata; outputs the chunks, best first.",
  usesModel: false,
  attributes: z.strictObject({}),
  config: retrieveConfig,
  expressions: celField("queries", "list"),
  execute: executeRetrieveNode,
};

export const EXPAND_NODE_SPEC: NodeTypeSpec = {
  ...TOOL_SHAPE,
  type: "expand",
  label: "expand",
  description: "Adds each chunk's neighbours (±window by position in its document) to a chunk list.",
  usesModel: false,
  attributes: z.strictObject({}),
  config: expandConfig,
  execute: executeExpandNode,
};

export const RERANK_NODE_SPEC: NodeTypeSpec = {
  ...TOOL_SHAPE,
  type: "rerank",
  label: "rerank",
  component: "ModelNode",
  description: "A model orders a chunk list by relevance to the query and keeps the best; a reply it cannot use keeps the original order.",
  usesModel: true,
  workflowPrompt: false,
  attributes: modelNodeAttributes,
  config: rerankConfig,
  expressions: celField("query", "value"),
  execute: executeRerankNode,
};

export const WEB_SEARCH_NODE_SPEC: NodeTypeSpec = {
  ...TOOL_SHAPE,
  type: "web_search",
  label: "web search",
  description: "Searches the web (the offline fixture corpus, or Tavily) with its input; outputs the pages as chunks with URLs.",
  usesModel: false,
  attributes: webSearchAttributes,
  config: webSearchConfig,
  expressions: celField("query", "value"),
  execute: executeWebSearchNode,
};

export const GUARDRAIL_NODE_SPEC: NodeTypeSpec = {
  ...TOOL_SHAPE,
  type: "guardrail",
  label: "guardrail",
  component: "RouterNode",
  description: "Checks its input by length, keywords, patterns and optionally a model: pass (unchanged) or blocked {reason}.",
  inDegree: { min: 1, max: 1 },
  usesModel: false,
  attributes: modelNodeAttributes,
  config: guardrailConfig,
  patterns: (node) => configStrings(node, "patterns").map((source, k) => ({ field: `patterns[${k}]`, source })),
  router: fixedPorts(GUARDRAIL_PORTS),
  execute: executeGuardrailNode,
};

export const CACHE_LOOKUP_NODE_SPEC: NodeTypeSpec = {
  ...TOOL_SHAPE,
  type: "cache_lookup",
  label: "cache lookup",
  component: "RouterNode",
  description: "Looks its input up in a semantic cache: hit (the cached answer) or miss (the input, unchanged).",
  inDegree: { min: 1, max: 1 },
  usesModel: false,
  attributes: z.strictObject({}),
  config: cacheLookupConfig,
  router: fixedPorts(CACHE_PORTS),
  expressions: celField("query", "value"),
  execute: executeCacheLookupNode,
};

export const CACHE_STORE_NODE_SPEC: NodeTypeSpec = {
  ...TOOL_SHAPE,
  type: "cache_store",
  label: "cache store",
  description: "Stores its input as the answer to the run's question in a semantic cache, and passes it on.",
  usesModel: false,
  attributes: z.strictObject({}),
  config: cacheStoreConfig,
  expressions: celField("query", "value"),
  execute: executeCacheStoreNode,
};

export const HISTORY_NODE_SPEC: NodeTypeSpec = {
  ...TOOL_SHAPE,
  type: "history",
  label: "history",
  description: "The thread's recent messages (maxMessages, maxTokens) as a value for prompts; its inputs only start it.",
  usesModel: false,
  usesThread: true,
  attributes: z.strictObject({}),
  config: historyConfig,
  execute: executeHistoryNode,
};

/** The tool node types of SPEC-V2 §6: `createPipelineRegistry(TOOL_NODE_SPECS)`. */
export const TOOL_NODE_SPECS: readonly NodeTypeSpec[] = [
  RETRIEVE_NODE_SPEC,
  EXPAND_NODE_SPEC,
  RERANK_NODE_SPEC,
  WEB_SEARCH_NODE_SPEC,
  GUARDRAIL_NODE_SPEC,
  CACHE_LOOKUP_NODE_SPEC,
  CACHE_STORE_NODE_SPEC,
  HISTORY_NODE_SPEC,
];
