import { chunkFilterSchema, WeftError, type ChunkAnchor, type MultiVectorSearchQuery, type VectorSearchQuery } from "@weft/engine";

/** Failures every vector store reports the same way, so callers and the contract suite see one vocabulary. */
export type VectorStoreErrorCode =
  | "VECTOR_DIMENSION_MISMATCH"
  | "VECTOR_COLLECTION_NOT_FOUND"
  | "INVALID_VECTOR_QUERY"
  | "VECTOR_STORE_UNAVAILABLE"
  | "VECTOR_STORE_ERROR"
  /** A semantic-cache entry that may not be stored (empty question, answer too large, bad time to live). */
  | "INVALID_CACHE_ENTRY";

export class VectorStoreError extends WeftError {
  readonly store: string;

  constructor(code: VectorStoreErrorCode, message: string, options: { store: string; cause?: unknown }) {
    const userCaused = code === "VECTOR_DIMENSION_MISMATCH" || code === "INVALID_VECTOR_QUERY" || code === "INVALID_CACHE_ENTRY";
    super(code, message, { audience: userCaused ? "user" : "operational", cause: options.cause, details: { store: options.store } });
    this.name = "VectorStoreError";
    this.store = options.store;
  }
}

export const MAX_TOP_K = 1000;

export function checkVectorDimension(store: string, collection: string, expected: number, vector: readonly number[], what: string): void {
  if (vector.length !== expected) {
    throw new VectorStoreError(
      "VECTOR_DIMENSION_MISMATCH",
      `${what} has ${vector.length} dimensions but collection "${collection}" holds ${expected}-dimensional vectors.`,
      { store },
    );
  }
  for (const value of vector) {
    if (!Number.isFinite(value)) {
      throw new VectorStoreError("INVALID_VECTOR_QUERY", `${what} contains a value that is not a finite number.`, { store });
    }
  }
}

/** ensureCollection on an existing collection with another dimension: the knowledge base and store disagree. */
export function checkCollectionDimension(store: string, collection: string, existing: number, requested: number): void {
  if (existing !== requested) {
    throw new VectorStoreError(
      "VECTOR_DIMENSION_MISMATCH",
      `Collection "${collection}" already holds ${existing}-dimensional vectors; it cannot be used for ${requested}-dimensional ones.`,
      { store },
    );
  }
}

export function checkNewDimension(store: string, dimension: number): void {
  if (!Number.isInteger(dimension) || dimension < 1 || dimension > 16_000) {
    throw new VectorStoreError("INVALID_VECTOR_QUERY", `A collection's dimension must be an integer from 1 to 16000, got ${dimension}.`, { store });
  }
}

export function checkSearchQuery(store: string, query: VectorSearchQuery): void {
  if (!Number.isInteger(query.topK) || query.topK < 1 || query.topK > MAX_TOP_K) {
    throw new VectorStoreError("INVALID_VECTOR_QUERY", `topK must be an integer from 1 to ${MAX_TOP_K}, got ${query.topK}.`, { store });
  }
  if (query.alpha !== undefined && !(query.alpha >= 0 && query.alpha <= 1)) {
    throw new VectorStoreError("INVALID_VECTOR_QUERY", `alpha must be between 0 (keyword only) and 1 (vector only), got ${query.alpha}.`, { store });
  }
  checkFilter(store, query.filter);
}

export function collectionNotFound(store: string, collection: string): VectorStoreError {
  return new VectorStoreError("VECTOR_COLLECTION_NOT_FOUND", `Collection "${collection}" does not exist in ${store}.`, { store });
}

/** Queries in one multi-query search. */
export const MAX_QUERIES = 20;
/** Neighbour lookups: chunks either side of an anchor, and anchors per call. */
export const MAX_NEIGHBOUR_WINDOW = 20;
export const MAX_NEIGHBOUR_ANCHORS = 1000;

/** Stores receive filters from code as well as from validated JSON: a malformed one is refused, never half-applied. */
function checkFilter(store: string, filter: VectorSearchQuery["filter"]): void {
  if (filter === undefined) return;
  const parsed = chunkFilterSchema.safeParse(filter);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
    throw new VectorStoreError("INVALID_VECTOR_QUERY", `Invalid filter${where}: ${issue?.message ?? "malformed"}.`, { store });
  }
}

export function checkMultiSearchQuery(store: string, query: MultiVectorSearchQuery): void {
  if (query.queries.length < 1 || query.queries.length > MAX_QUERIES) {
    throw new VectorStoreError("INVALID_VECTOR_QUERY", `A multi-query search takes 1 to ${MAX_QUERIES} queries, got ${query.queries.length}.`, { store });
  }
  checkSearchQuery(store, { ...query, vector: [] });
}

export function checkNeighbourQuery(store: string, anchors: readonly ChunkAnchor[], window: number): void {
  if (!Number.isInteger(window) || window < 0 || window > MAX_NEIGHBOUR_WINDOW) {
    throw new VectorStoreError("INVALID_VECTOR_QUERY", `window must be an integer from 0 to ${MAX_NEIGHBOUR_WINDOW}, got ${window}.`, { store });
  }
  if (anchors.length > MAX_NEIGHBOUR_ANCHORS) {
    throw new VectorStoreError("INVALID_VECTOR_QUERY", `At most ${MAX_NEIGHBOUR_ANCHORS} anchors per neighbour lookup, got ${anchors.length}.`, { store });
  }
  for (const anchor of anchors) {
    if (!Number.isInteger(anchor.chunkIndex) || anchor.chunkIndex < 0) {
      throw new VectorStoreError("INVALID_VECTOR_QUERY", `An anchor's chunkIndex must be a whole number ≥ 0, got ${anchor.chunkIndex}.`, { store });
    }
  }
}
