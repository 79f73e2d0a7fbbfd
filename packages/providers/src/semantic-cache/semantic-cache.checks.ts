import { createHash } from "node:crypto";
import { SEMANTIC_CACHE_LIMITS as LIMITS, type SemanticCachePut } from "@weft/engine";
import { checkVectorDimension, VectorStoreError } from "../vector-store/vector-store.errors.js";

/**
 * What every semantic-cache store checks and derives the same way: entry ids, expiry times and the
 * limits on what may be stored or asked. A refused call changes nothing.
 */

/** Stable for (scope, question): storing the same question again in a scope replaces its entry. */
export function cacheEntryId(scope: string, query: string): string {
  return createHash("sha256").update(scope).update("\n").update(query.trim()).digest("hex").slice(0, 32);
}

/** Epoch milliseconds at which an entry stored `now` expires, or null when it never does. */
export function expiryTime(now: number, ttlSeconds: number | null | undefined): number | null {
  return ttlSeconds === null || ttlSeconds === undefined ? null : now + ttlSeconds * 1000;
}

function invalid(store: string, message: string): VectorStoreError {
  return new VectorStoreError("INVALID_CACHE_ENTRY", message, { store });
}

/** Scope keys are `workflow:<id>:v<version>` or `ns:<namespace>` (namespaces up to 100 characters). */
const MAX_SCOPE_LENGTH = 300;

function checkScope(store: string, scope: string): void {
  if (scope.trim() === "" || scope.length > MAX_SCOPE_LENGTH) throw invalid(store, `A cache scope is a key of 1 to ${MAX_SCOPE_LENGTH} characters, got "${scope.slice(0, 40)}".`);
}

export function checkCachePut(store: string, dimension: number, scope: string, put: SemanticCachePut): string {
  checkScope(store, scope);
  if (put.query.trim() === "") throw invalid(store, "A cached question must not be empty.");
  if (put.query.length > LIMITS.maxQueryLength) throw invalid(store, `A cached question has at most ${LIMITS.maxQueryLength} characters, got ${put.query.length}.`);
  const ttl = put.ttlSeconds;
  if (ttl !== null && ttl !== undefined && (!Number.isInteger(ttl) || ttl < 1 || ttl > LIMITS.maxTtlSeconds)) {
    throw invalid(store, `ttlSeconds must be a whole number from 1 to ${LIMITS.maxTtlSeconds} (a year), or absent for no expiry; got ${ttl}.`);
  }
  const answer = JSON.stringify(put.answer);
  if (answer === undefined) throw invalid(store, "A cached answer must be a JSON value.");
  const bytes = Buffer.byteLength(answer, "utf8");
  if (bytes > LIMITS.maxAnswerBytes) throw invalid(store, `A cached answer has at most ${LIMITS.maxAnswerBytes} bytes of JSON, got ${bytes}.`);
  checkVectorDimension(store, "semantic cache", dimension, put.vector, "The question's vector");
  return answer;
}

export function checkCacheLookup(store: string, dimension: number, scope: string, vector: readonly number[], threshold: number): void {
  checkScope(store, scope);
  if (!(threshold >= 0 && threshold <= 1)) {
    throw new VectorStoreError("INVALID_VECTOR_QUERY", `A cache threshold is a similarity from 0 to 1, got ${threshold}.`, { store });
  }
  checkVectorDimension(store, "semantic cache", dimension, vector, "The question's vector");
}

export function checkCachePage(store: string, page: { limit: number; offset?: number }): { limit: number; offset: number } {
  const offset = page.offset ?? 0;
  if (!Number.isInteger(page.limit) || page.limit < 1 || page.limit > LIMITS.maxListLimit) {
    throw new VectorStoreError("INVALID_VECTOR_QUERY", `A cache page holds 1 to ${LIMITS.maxListLimit} entries, got ${page.limit}.`, { store });
  }
  if (!Number.isInteger(offset) || offset < 0) throw new VectorStoreError("INVALID_VECTOR_QUERY", `offset must be a whole number ≥ 0, got ${offset}.`, { store });
  return { limit: page.limit, offset };
}
