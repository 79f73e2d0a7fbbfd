import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import type * as USearch from "usearch";

type Index = USearch.Index;
let usearch: typeof USearch | undefined;

/**
 * usearch, loaded on first use: where its prebuilt binary cannot load, building a scope's index fails and
 * the cache's lookups stay with pgvector (ScopeIndexes reports why). Through its CommonJS build: the ES
 * module build looks for the binary from a file: URL and does not find it under Node.
 */
function library(): typeof USearch {
  usearch ??= createRequire(import.meta.url)("usearch") as typeof USearch;
  return usearch;
}

/**
 * The graph's shape: usearch's defaults (16 links per node, candidate lists of 128 while adding and 64
 * while searching). On the cache benchmark's 100,000 entries, fewer while adding (64) found 1.5 % fewer
 * reworded questions.
 */
export const SCOPE_INDEX_CONFIG = {
  metric: "cos" as USearch.MetricKind,
  // Half-precision copies: half the memory of f32 and faster to compare. Distances come out about
  // 1e-3 off, so a lookup confirms its candidates' similarity exactly in the database.
  quantization: "f16" as USearch.ScalarKind,
  connectivity: 16,
  expansion_add: 128,
  expansion_search: 64,
};

/** One calling thread: the index is used from the API's event loop (or a build worker), never in parallel. */
const THREADS = 1;

/**
 * Threads of a build (usearch adds a batch of vectors in parallel): every core but one, which the API's
 * thread keeps while a scope is built in the background (on 2 cores, one).
 */
export const BUILD_THREADS = Math.max(1, availableParallelism() - 1);

export interface IndexedNeighbour {
  id: string;
  /** Cosine similarity to the half-precision copy (about 1e-3 from the exact one). */
  similarity: number;
}

/** A scope's live entries as the table has them: ids and when each was stored (created_at). */
export interface ScopeEntries {
  ids: string[];
  /** Epoch milliseconds, in the order of `ids`: an entry stored again gets a new one. */
  createdAt: number[];
}

/** Entries with their vectors, as a build worker receives them. */
export interface ScopeVectors extends ScopeEntries {
  /** The vectors of `ids` in order, `dimension` numbers each, in pages (as they were read). */
  pages: Float32Array[];
}

export function createIndex(dimension: number): Index {
  return new (library().Index)({ dimensions: dimension, ...SCOPE_INDEX_CONFIG, multi: false });
}

/** Adds the pages' vectors under keys firstKey, firstKey + 1, … (their order), a page at a time on `threads` threads. */
export function addAll(index: Index, dimension: number, pages: readonly Float32Array[], firstKey = 0, threads = THREADS): void {
  let key = firstKey;
  for (const page of pages) {
    const count = page.length / dimension;
    if (count === 0) continue;
    index.add(BigUint64Array.from({ length: count }, (_, i) => BigInt(key + i)), page, threads);
    key += count;
  }
}

/**
 * An in-memory HNSW graph (usearch) over the vectors of one cache scope, with the entries' ids. A key
 * is never reused: an entry stored again is removed and added under a new key.
 */
export class ScopeVectorIndex {
  private readonly idsByKey = new Map<bigint, string>();
  private readonly keysById = new Map<string, bigint>();
  private nextKey: bigint;

  /** `index` holds `ids[i]` under key `keys[i]` (by default i: see `addAll`); keys above them are new. */
  constructor(
    private readonly index: Index,
    ids: readonly string[],
    keys?: readonly number[],
  ) {
    let next = ids.length;
    ids.forEach((id, i) => {
      const key = keys?.[i] ?? i;
      this.idsByKey.set(BigInt(key), id);
      this.keysById.set(id, BigInt(key));
      next = Math.max(next, key + 1);
    });
    this.nextKey = BigInt(next);
  }

  get size(): number {
    return this.keysById.size;
  }

  upsert(id: string, vector: Float32Array): void {
    this.remove(id);
    const key = this.nextKey++;
    this.index.add(key, vector, THREADS);
    this.idsByKey.set(key, id);
    this.keysById.set(id, key);
  }

  remove(id: string): void {
    const key = this.keysById.get(id);
    if (key === undefined) return;
    this.index.remove(key);
    this.keysById.delete(id);
    this.idsByKey.delete(key);
  }

  /** Up to `k` entries nearest to `vector`, nearest first. */
  nearest(vector: Float32Array, k: number): IndexedNeighbour[] {
    if (this.size === 0) return [];
    const matches = this.index.search(vector, k, THREADS) as { keys: BigUint64Array; distances: Float32Array };
    const found: IndexedNeighbour[] = [];
    matches.keys.forEach((key, i) => {
      const id = this.idsByKey.get(key);
      if (id !== undefined) found.push({ id, similarity: 1 - (matches.distances[i] as number) });
    });
    return found;
  }
}
