import { cacheScopeKey, namespaceProblem, type CacheScope, type SemanticCacheEntry, type SemanticCacheStore } from "@weft/engine";
import { AppError } from "../../errors/app-error.js";
import { failure, success, type Outcome } from "../../errors/outcome.js";
import { userError, type UserError } from "../../errors/user-error.type.js";
import { encodeOffsetCursor, PageInfo, readBound, readOffsetCursor, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page } from "../common/pagination.js";
import type { SemanticCacheScopeInput } from "./semantic-cache.input.js";
import type { SemanticCacheEntryObject } from "./semantic-cache.type.js";

const CURSOR = "entry";

/**
 * The semantic caches of cache nodes and `cache` on llm nodes, seen from the API: a scope's live entries
 * listed newest first, and a scope cleared. The store is the server's (pgvector embedded, Weaviate in
 * server mode); without one there is nothing to list (SEMANTIC_CACHE_UNAVAILABLE).
 */
export class SemanticCacheService {
  constructor(private readonly store: SemanticCacheStore | null) {}

  async list(input: SemanticCacheScopeInput, args: { first?: number | null; after?: string | null }): Promise<Page<SemanticCacheEntryObject>> {
    const scope = readScope(input);
    if (!scope.ok) throw new AppError("BAD_USER_INPUT", scope.errors[0]!.message, { extensions: { path: scope.errors[0]!.path } });
    const store = this.requireStore();
    const size = readBound("first", args.first, { max: MAX_PAGE_SIZE, fallback: DEFAULT_PAGE_SIZE });
    const offset = readOffsetCursor(CURSOR, args.after);
    const page = await store.list(cacheScopeKey(scope.value), { limit: size + 1, offset });
    const edges = page.entries.slice(0, size).map((entry, index) => ({ cursor: encodeOffsetCursor(CURSOR, offset + index + 1), node: toEntryObject(entry) }));
    const pageInfo = new PageInfo();
    pageInfo.hasNextPage = page.entries.length > size;
    pageInfo.endCursor = edges.at(-1)?.cursor ?? null;
    return { edges, pageInfo, totalCount: page.total };
  }

  async clear(input: SemanticCacheScopeInput): Promise<Outcome<number>> {
    const scope = readScope(input);
    if (!scope.ok) return scope;
    if (!this.store) return failure(unavailable());
    return success(await this.store.clear(cacheScopeKey(scope.value)));
  }

  private requireStore(): SemanticCacheStore {
    if (!this.store) throw new AppError("SEMANTIC_CACHE_UNAVAILABLE", unavailable().message);
    return this.store;
  }
}

function unavailable(): UserError {
  return userError("SEMANTIC_CACHE_UNAVAILABLE", "this server has no semantic cache store (no pgvector in its database and no WEAVIATE_URL)");
}

/** Exactly one kind of scope: a namespace, or a workflow with a version or a draft edit version (and maybe a node). */
export function readScope(input: SemanticCacheScopeInput): Outcome<CacheScope> {
  const path = (field: string) => ({ path: ["scope", field] });
  const namespace = input.namespace ?? null;
  const workflowId = input.workflowId ?? null;
  if (namespace !== null) {
    if (workflowId !== null || input.version != null || input.draftEditVersion != null || input.nodeId != null) {
      return failure(userError("VALIDATION_FAILED", "a namespace scope names no workflow, version or node", path("namespace")));
    }
    const problem = namespaceProblem(namespace);
    return problem ? failure(userError("VALIDATION_FAILED", problem, path("namespace"))) : success({ kind: "namespace", namespace });
  }
  if (workflowId === null) return failure(userError("VALIDATION_FAILED", "name a namespace, or a workflowId with a version or a draftEditVersion", path("workflowId")));
  const version = input.version ?? null;
  const draft = input.draftEditVersion ?? null;
  if ((version === null) === (draft === null)) {
    return failure(userError("VALIDATION_FAILED", "give exactly one of version and draftEditVersion", path(version === null ? "version" : "draftEditVersion")));
  }
  const number = (version ?? draft) as number;
  if (!Number.isSafeInteger(number) || number < (draft === null ? 1 : 0)) {
    return failure(userError("VALIDATION_FAILED", "a version number is a whole number (from 1; a draft edit version from 0)", path(version === null ? "draftEditVersion" : "version")));
  }
  const revision = { workflowId, version: number, ...(draft === null ? {} : { draft: true }) };
  return success(input.nodeId ? { kind: "node", nodeId: input.nodeId, ...revision } : { kind: "workflow", ...revision });
}

function toEntryObject(entry: SemanticCacheEntry): SemanticCacheEntryObject {
  return {
    id: entry.id,
    scope: entry.scope,
    query: entry.query,
    answer: entry.answer,
    createdAt: new Date(entry.createdAt),
    expiresAt: entry.expiresAt === null ? null : new Date(entry.expiresAt),
  };
}
