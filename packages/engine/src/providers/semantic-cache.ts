import { hasVisibleCharacter, VISIBLE_NAME } from "../model/visible-text.js";

/**
 * Storage for semantic caches (`cache_lookup` / `cache_store` nodes, `cache` on `llm` nodes): answers
 * stored under the embedding of the question that produced them, found again by a similar question.
 * Entries live in a scope: by default the workflow version that stored them (a new version starts
 * with an empty cache, since its graph may answer differently), or a named namespace shared by every
 * workflow and version that names it. Adapters: pgvector in the embedded database and Weaviate in
 * server mode, both checked by one contract suite.
 */

/** What a cache holds as an answer: any JSON value. */
export type CachedAnswer = string | number | boolean | null | CachedAnswer[] | { [key: string]: CachedAnswer };

/**
 * What a run executes: a published version (`version` is its number), or the draft (`draft: true`,
 * `version` is the workflow's edit counter when the run started, so every edit starts a new cache).
 */
export interface WorkflowRevision {
  workflowId: string;
  version: number;
  draft?: boolean;
}

export type CacheScope =
  | ({ kind: "workflow" } & WorkflowRevision)
  /** One node's own cache (`cache` on an `llm` node) within a workflow version. */
  | ({ kind: "node"; nodeId: string } & WorkflowRevision)
  | { kind: "namespace"; namespace: string };

export const SEMANTIC_CACHE_LIMITS = {
  maxNamespaceLength: 100,
  /** Characters of the question stored with an entry. */
  maxQueryLength: 10_000,
  /** Bytes of an answer's JSON. */
  maxAnswerBytes: 1_048_576,
  /** Longest time to live: one year. Entries may also live forever (no ttl). */
  maxTtlSeconds: 31_536_000,
  /** Entries per list page. */
  maxListLimit: 500,
} as const;

/**
 * The key stores file entries under: `workflow:<workflowId>:v<version>` (a published version),
 * `workflow:<workflowId>:draft@<edit version>` (the draft), `…:node:<nodeId>` for one node's own cache,
 * or `ns:<namespace>`. The prefixes keep the kinds apart whatever a namespace is called.
 */
export function cacheScopeKey(scope: CacheScope): string {
  if (scope.kind === "namespace") return `ns:${scope.namespace}`;
  const version = `workflow:${scope.workflowId}:${scope.draft ? `draft@${scope.version}` : `v${scope.version}`}`;
  return scope.kind === "node" ? `${version}:node:${scope.nodeId}` : version;
}

/** A node's scope: its `namespace` when it names one, else the version of the workflow that runs it. */
export function resolveCacheScope(namespace: string | null | undefined, workflow: WorkflowRevision): CacheScope {
  const named = namespace?.trim();
  return named ? { kind: "namespace", namespace: named } : { kind: "workflow", ...workflow };
}

/** Why a namespace is unusable, or null: 1–100 characters, no control characters, not blank. */
export function namespaceProblem(namespace: string): string | null {
  if (!hasVisibleCharacter(namespace)) return `a cache namespace ${VISIBLE_NAME}`;
  if (namespace.length > SEMANTIC_CACHE_LIMITS.maxNamespaceLength) return `a cache namespace has at most ${SEMANTIC_CACHE_LIMITS.maxNamespaceLength} characters`;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(namespace)) return "a cache namespace must not contain control characters";
  return null;
}

export interface SemanticCacheEntry {
  /** Stable for (scope, query): storing the same question again in a scope replaces its entry. */
  id: string;
  scope: string;
  query: string;
  answer: CachedAnswer;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Epoch milliseconds; null = never expires. */
  expiresAt: number | null;
}

export interface SemanticCacheHit {
  entry: SemanticCacheEntry;
  /** Cosine similarity of the two questions' embeddings, in [0, 1]. */
  similarity: number;
}

export interface SemanticCachePut {
  query: string;
  vector: number[];
  answer: CachedAnswer;
  /** Seconds until the entry expires (1 … one year); null or absent: it never expires. */
  ttlSeconds?: number | null;
}

export interface SemanticCachePage {
  /** Newest first. */
  entries: SemanticCacheEntry[];
  /** Live entries in the scope. */
  total: number;
}

/**
 * One embedding space (one embedder's model and dimension) of semantic caches. Expired entries are
 * never returned by `lookup` or `list`; `removeExpired` deletes them for good.
 */
export interface SemanticCacheStore {
  /** "pgvector", "weaviate", … */
  readonly id: string;
  /** The embedder whose vectors this store holds, and their dimension. */
  readonly model: string;
  readonly dimension: number;
  /**
   * The nearest live entry of the scope whose similarity is ≥ threshold, or null (a miss). Stores with
   * an approximate index may miss an entry they hold (a miss, never a wrong answer).
   */
  lookup(scope: string, vector: readonly number[], threshold: number, signal?: AbortSignal): Promise<SemanticCacheHit | null>;
  put(scope: string, entry: SemanticCachePut): Promise<SemanticCacheEntry>;
  /** Stores several entries of one scope at once (warming or importing a cache), as `put` would one by one. */
  putMany(scope: string, entries: readonly SemanticCachePut[]): Promise<void>;
  list(scope: string, page: { limit: number; offset?: number }): Promise<SemanticCachePage>;
  /** Deletes every entry of the scope; returns how many there were (expired ones included). */
  clear(scope: string): Promise<number>;
  /** Deletes every expired entry of every scope; returns how many. */
  removeExpired(): Promise<number>;
}

/**
 * Question-level access for cache nodes: embeds the question with the embedder the store was built for
 * and files it under the scope's key. The API builds one over its configured store.
 */
export interface SemanticCache {
  /** Which store answers ("pgvector", "weaviate"), recorded on node runs. */
  readonly store: string;
  lookup(scope: CacheScope, question: string, threshold: number, signal: AbortSignal): Promise<SemanticCacheHit | null>;
  save(scope: CacheScope, question: string, answer: CachedAnswer, ttlSeconds: number | null | undefined, signal: AbortSignal): Promise<SemanticCacheEntry>;
}
