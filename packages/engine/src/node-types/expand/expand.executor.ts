import { emptyNodeDetails, NodeFailure } from "../../registry/node-failure.js";
import type { ChunkAnchor, PositionedChunk } from "../../providers/retrieval.js";
import type { NodeExecutionContext, NodeExecutor } from "../../registry/node-type-definition.js";
import { configValue } from "../common/router-ports.js";
import { chunkValue, readChunks, toScoredChunk, type ChunkValue } from "../common/chunk-value.js";
import { EXPAND_DEFAULTS } from "./expand.config.js";
import { toolUnavailable } from "../common/tool-inputs.js";

/**
 * Adds each chunk's neighbours (±window by position, same document) to a chunk list (SPEC-V2 §6).
 * Documents keep the order in which their first chunk arrived; within a document chunks are in
 * reading order. A neighbour takes the score of the best chunk it was found around and names it in
 * `neighbourOf`. Chunks that are not positions in a knowledge base (web pages) pass through in place.
 */
export const executeExpandNode: NodeExecutor = async (context) => {
  const details = emptyNodeDetails(context.inputs);
  try {
    const { chunks } = readChunks(context.values);
    const window = configValue<number>(context.node, "window", EXPAND_DEFAULTS.window);
    const located = chunks.map((chunk) => ({ chunk, knowledgeBase: knowledgeBaseOf(context, chunk) }));
    const fetched = await fetchNeighbours(context, located, window);
    details.store = fetched.store;
    const output = arrange(located, fetched.byDocument, window);
    details.context = output.map(toScoredChunk);
    const added = output.length - chunks.length;
    return { description: `${chunks.length} chunks and ${added} neighbours (window ${window})`, output, details };
  } catch (error) {
    throw NodeFailure.wrap(error, details);
  }
};

interface Located {
  chunk: ChunkValue;
  /** Where its neighbours are: null for chunks without a position in a knowledge base. */
  knowledgeBase: string | null;
}

const documentKey = (knowledgeBase: string, documentId: string) => JSON.stringify([knowledgeBase, documentId]);

function knowledgeBaseOf(context: NodeExecutionContext, chunk: ChunkValue): string | null {
  if (typeof chunk.chunkIndex !== "number" || typeof chunk.url === "string") return null;
  if (typeof chunk.knowledgeBase === "string") return chunk.knowledgeBase;
  return configValue<string | null>(context.node, "knowledgeBase", context.settings.knowledgeBase);
}

async function fetchNeighbours(context: NodeExecutionContext, located: readonly Located[], window: number) {
  const anchorsByBase = new Map<string, ChunkAnchor[]>();
  for (const { chunk, knowledgeBase } of located) {
    if (knowledgeBase === null) continue;
    anchorsByBase.set(knowledgeBase, [...(anchorsByBase.get(knowledgeBase) ?? []), { documentId: chunk.documentId, chunkIndex: chunk.chunkIndex as number }]);
  }
  const byDocument = new Map<string, PositionedChunk[]>();
  if (anchorsByBase.size === 0) return { byDocument, store: null };
  const search = context.tools.knowledgeBases;
  if (!search) throw toolUnavailable("KNOWLEDGE_BASES_UNAVAILABLE", "knowledge-base search");
  let store: string | null = null;
  for (const [knowledgeBase, anchors] of anchorsByBase) {
    const result = await search.neighbours(knowledgeBase, anchors, window, context.signal);
    store = result.store;
    for (const found of result.chunks) {
      const key = documentKey(knowledgeBase, found.source.documentId);
      byDocument.set(key, [...(byDocument.get(key) ?? []), found]);
    }
  }
  return { byDocument, store };
}

/** The output order: each document's chunks together, where its first chunk was, in reading order. */
function arrange(located: readonly Located[], byDocument: ReadonlyMap<string, PositionedChunk[]>, window: number): ChunkValue[] {
  const output: ChunkValue[] = [];
  const placedDocuments = new Set<string>();
  for (const { chunk, knowledgeBase } of located) {
    const key = knowledgeBase === null ? null : documentKey(knowledgeBase, chunk.documentId);
    const group = key === null ? undefined : byDocument.get(key);
    if (key === null || !group) {
      output.push(chunk);
      continue;
    }
    if (placedDocuments.has(key)) continue;
    placedDocuments.add(key);
    const originals = located.filter((other) => other.knowledgeBase === knowledgeBase && other.chunk.documentId === chunk.documentId).map((other) => other.chunk);
    const found = [...group].sort((a, b) => a.source.chunkIndex - b.source.chunkIndex);
    // Originals the store did not return (removed since) stay in the list.
    const missing = originals.filter((original) => !found.some((item) => item.id === original.chunkId));
    for (const item of found) output.push(originals.find((original) => original.chunkId === item.id) ?? neighbour(item, originals, window, knowledgeBase as string));
    output.push(...missing);
  }
  return output;
}

/** A fetched neighbour, scored as the best chunk of its document within the window around it. */
function neighbour(found: PositionedChunk, originals: readonly ChunkValue[], window: number, knowledgeBase: string): ChunkValue {
  const near = originals
    .filter((other) => Math.abs((other.chunkIndex as number) - found.source.chunkIndex) <= window)
    .sort((a, b) => b.score - a.score)[0];
  const anchor = near ?? originals[0];
  return chunkValue({ ...found, score: anchor?.score ?? 0 }, { knowledgeBase, ...(anchor ? { neighbourOf: anchor.chunkId } : {}) });
}
