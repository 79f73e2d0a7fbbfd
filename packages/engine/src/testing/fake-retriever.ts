import { WeftError } from "../model/errors.js";
import type { RetrievalResult, Retriever, ScoredChunk } from "../providers/retrieval.js";

export interface RetrievalCall {
  knowledgeBase: string;
  query: string;
  topK: number;
  signal: AbortSignal;
}

/**
 * An in-memory retriever for tests: knowledge bases are lists of chunks, scored by the share of query
 * words they contain (ties keep insertion order). It records every call.
 */
export class FakeRetriever implements Retriever {
  readonly calls: RetrievalCall[] = [];
  readonly #bases: Map<string, ScoredChunk[]>;

  constructor(bases: Record<string, Array<Omit<ScoredChunk, "score">>>) {
    this.#bases = new Map(Object.entries(bases).map(([name, chunks]) => [name, chunks.map((c) => ({ ...c, score: 0 }))]));
  }

  async retrieve(knowledgeBase: string, query: string, topK: number, signal: AbortSignal): Promise<RetrievalResult> {
    this.calls.push({ knowledgeBase, query, topK, signal });
    signal.throwIfAborted();
    const chunks = this.#bases.get(knowledgeBase);
    if (!chunks) {
      throw new WeftError("KNOWLEDGE_BASE_NOT_FOUND", `knowledge base "${knowledgeBase}" does not exist`);
    }
    const words = new Set(query.toLowerCase().split(/\W+/).filter(Boolean));
    const scored = chunks.map((chunk) => ({ ...chunk, score: overlap(words, chunk.text) }));
    scored.sort((a, b) => b.score - a.score);
    return { chunks: scored.slice(0, topK), store: "memory" };
  }
}

function overlap(queryWords: Set<string>, text: string): number {
  if (queryWords.size === 0) return 0;
  const words = new Set(text.toLowerCase().split(/\W+/));
  let shared = 0;
  for (const word of queryWords) if (words.has(word)) shared += 1;
  return shared / queryWords.size;
}
