import { buildScopeIndex, loadScopeIndex } from "./scope-index-builder.js";
import { diffSavedScope } from "./scope-index-diff.js";
import type { ScopeIndexFiles } from "./scope-index-files.js";
import type { ScopeEntries, ScopeVectorIndex, ScopeVectors } from "./scope-vector-index.js";

/** Where a scope's entries are read from to build its index (the cache's table): live entries only. */
export interface ScopeSource {
  count(scope: string): Promise<number>;
  /** Every entry with its vector. */
  vectors(scope: string): Promise<ScopeVectors>;
  /** Every entry, without its vector: what a saved graph is checked against. */
  entries(scope: string): Promise<ScopeEntries>;
  /** The entries among `ids`, with their vectors. */
  vectorsOf(scope: string, ids: readonly string[]): Promise<ScopeVectors>;
}

export interface ScopeIndexesOptions {
  dimension: number;
  /** Entries held in memory over all scopes; a scope that would pass it is not indexed. */
  maxEntries: number;
  /** How long a scope that could not be indexed (too large, or its build failed) waits before another try. */
  retryAfterMs?: number;
  /** Told why a scope is not indexed (its lookups go to the database meanwhile). */
  onUnavailable?: (scope: string, error: unknown) => void;
  /** Where built scopes are saved and loaded from at the next start; absent: built from the table each time. */
  files?: ScopeIndexFiles;
}

/** More changes than this at once are not applied one by one on the calling thread: the scope is built again. */
export const LARGE_CHANGE = 1_000;
/**
 * Changes applied in one go on the calling thread (adding one to a 100,000-entry graph takes about half a
 * millisecond), then the thread serves other work before the next ones.
 */
const CHANGES_PER_TURN = 32;
const RETRY_AFTER_MS = 60_000;

interface Change {
  id: string;
  /** Absent: the entry was removed. */
  vector?: Float32Array;
}

type ScopeState =
  | { kind: "loading"; entries: number; changes: Change[]; stale: boolean; built: Promise<void> }
  | { kind: "ready"; index: ScopeVectorIndex; queue: Change[]; draining: boolean }
  | { kind: "unavailable"; until: number };

/**
 * In-memory HNSW indexes of the semantic cache's scopes, built on first use from the database and kept
 * in step with this process's writes. A scope is built on a worker thread while its lookups go to the
 * database; the changes made meanwhile are applied when the build arrives. Only for a database that
 * one process writes (the embedded one): another process's writes would not reach the index. With
 * `files`, a built scope is saved beside the data directory and the next process starts from it,
 * checked and patched against the table (restore), instead of building it again.
 */
export class ScopeIndexes {
  private readonly states = new Map<string, ScopeState>();
  private readonly retryAfterMs: number;

  constructor(
    private readonly source: ScopeSource,
    private readonly options: ScopeIndexesOptions,
  ) {
    this.retryAfterMs = options.retryAfterMs ?? RETRY_AFTER_MS;
  }

  /** The scope's index if it is built; otherwise starts building it and returns undefined. */
  ready(scope: string): ScopeVectorIndex | undefined {
    const state = this.stateOf(scope);
    return state?.kind === "ready" ? state.index : undefined;
  }

  /** The scope's index once built (undefined if it cannot be). */
  async whenReady(scope: string): Promise<ScopeVectorIndex | undefined> {
    const state = this.stateOf(scope);
    if (state?.kind === "loading") await state.built;
    const now = this.states.get(scope);
    return now?.kind === "ready" ? now.index : undefined;
  }

  /** Entries stored (again) in a scope. */
  upsert(scope: string, entries: readonly { id: string; vector: Float32Array }[]): void {
    this.change(scope, entries);
  }

  remove(scope: string, ids: readonly string[]): void {
    this.change(
      scope,
      ids.map((id) => ({ id })),
    );
  }

  /** Forgets a scope (it was cleared), and its saved graph; its next lookup builds it again. */
  drop(scope: string): void {
    this.states.delete(scope);
    void this.options.files?.remove(scope).catch(() => undefined);
  }

  /** Entries held or being loaded, over all scopes. */
  get entries(): number {
    let total = 0;
    for (const state of this.states.values()) total += state.kind === "ready" ? state.index.size : state.kind === "loading" ? state.entries : 0;
    return total;
  }

  private change(scope: string, changes: readonly Change[]): void {
    const state = this.states.get(scope);
    if (state?.kind === "loading") {
      // Too many to apply one by one when the build arrives: the build is thrown away and started again.
      state.stale ||= changes.length > LARGE_CHANGE;
      if (!state.stale) state.changes.push(...changes);
    } else if (state?.kind === "ready") {
      if (changes.length > LARGE_CHANGE) return void this.states.delete(scope);
      state.queue.push(...changes);
      void this.drain(scope, state);
    }
  }

  /**
   * Applies queued changes a few at a time: the first ones at once (a single `put` is in the index when it
   * returns), the rest on later turns of the event loop. Stops if the scope is dropped meanwhile.
   */
  private async drain(scope: string, state: ScopeState & { kind: "ready" }): Promise<void> {
    if (state.draining) return;
    state.draining = true;
    try {
      while (state.queue.length > 0 && this.states.get(scope) === state) {
        apply(state.index, state.queue.splice(0, CHANGES_PER_TURN));
        if (state.queue.length > 0) await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      // The index no longer matches the table: lookups go to the database until another try.
      if (this.states.get(scope) === state) this.unavailable(scope, error);
    } finally {
      state.draining = false;
    }
  }

  private unavailable(scope: string, error: unknown): void {
    this.states.set(scope, { kind: "unavailable", until: Date.now() + this.retryAfterMs });
    this.options.onUnavailable?.(scope, error);
  }

  private stateOf(scope: string): ScopeState | undefined {
    const state = this.states.get(scope);
    if (state === undefined || (state.kind === "unavailable" && state.until <= Date.now())) return this.load(scope);
    return state;
  }

  private load(scope: string): ScopeState {
    const state: ScopeState & { kind: "loading" } = { kind: "loading", entries: 0, changes: [], stale: false, built: Promise.resolve() };
    this.states.set(scope, state);
    const current = () => this.states.get(scope) === state;
    state.built = (async () => {
      state.entries = await this.source.count(scope);
      if (this.entries > this.options.maxEntries) throw new Error(`${state.entries} entries would pass the budget of ${this.options.maxEntries} in memory`);
      const index = (await this.restore(scope)) ?? (await this.build(scope));
      if (!current()) return;
      if (state.stale) return void this.states.delete(scope);
      const ready: ScopeState & { kind: "ready" } = { kind: "ready", index, queue: state.changes, draining: false };
      this.states.set(scope, ready);
      void this.drain(scope, ready);
    })().catch((error: unknown) => {
      // Lookups keep going to the database; another try later.
      if (current()) this.unavailable(scope, error);
    });
    return state;
  }

  /** A new graph of every live entry, saved if the scope is kept on disk. */
  private async build(scope: string): Promise<ScopeVectorIndex> {
    const { ids, createdAt, pages } = await this.source.vectors(scope);
    const target = (await this.options.files?.target(scope)) ?? null;
    const entries = { ids, createdAt, keys: ids.map((_, i) => i) };
    return buildScopeIndex(this.options.dimension, { entries, base: null, remove: [], add: { firstKey: 0, pages }, target });
  }

  /**
   * The scope's saved graph, checked against the table's live entries: as it is if nothing changed since
   * it was saved, else patched on the build thread (what is gone or was stored again taken out, what is
   * new added) and saved again. Undefined when there is none, it cannot be read, or most of it is gone.
   */
  private async restore(scope: string): Promise<ScopeVectorIndex | undefined> {
    const files = this.options.files;
    const saved = files && (await files.read(scope));
    if (!saved) return undefined;
    try {
      const diff = diffSavedScope(saved, await this.source.entries(scope));
      if (diff.removedKeys.length > saved.ids.length * MAX_REMOVED_SHARE) return undefined;
      if (diff.removedKeys.length === 0 && diff.missing.length === 0) return loadScopeIndex(this.options.dimension, saved.graph, saved);
      const added = diff.missing.length > 0 ? await this.source.vectorsOf(scope, diff.missing) : { ids: [], createdAt: [], pages: [] };
      const firstKey = saved.keys.reduce((highest, key) => Math.max(highest, key), -1) + 1;
      const entries = {
        ids: [...diff.kept.ids, ...added.ids],
        createdAt: [...diff.kept.createdAt, ...added.createdAt],
        keys: [...diff.kept.keys, ...added.ids.map((_, i) => firstKey + i)],
      };
      const change = { base: saved.graph, remove: diff.removedKeys, add: { firstKey, pages: added.pages } };
      return await buildScopeIndex(this.options.dimension, { entries, ...change, target: await files.target(scope) });
    } catch {
      // A graph this build cannot read (or a failed patch): the scope is built anew from the table.
      return undefined;
    }
  }
}

/** What a saved graph may lack and still be patched rather than built again: up to half of its entries gone. */
const MAX_REMOVED_SHARE = 0.5;

function apply(index: ScopeVectorIndex, changes: readonly Change[]): void {
  for (const change of changes) {
    if (change.vector) index.upsert(change.id, change.vector);
    else index.remove(change.id);
  }
}
