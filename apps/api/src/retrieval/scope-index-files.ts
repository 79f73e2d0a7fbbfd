import { createHash, randomBytes } from "node:crypto";
import { closeSync, fsyncSync, openSync, renameSync, writeFileSync } from "node:fs";
import { mkdir, readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { SCOPE_INDEX_CONFIG, type ScopeEntries } from "./scope-vector-index.js";

/** Bumped when what a saved scope holds changes meaning: older files are then built again. */
const FORMAT = 1;

/** A scope's graph as saved, and which entry each of its keys holds (as stored when it was saved). */
export interface SavedScope extends ScopeEntries {
  /** The graph file (usearch). */
  graph: string;
  /** The key of each entry, in the order of `ids`. */
  keys: number[];
}

/** Where a build or patch saves its result: the graph first, then the manifest naming it. */
export interface SaveTarget {
  graph: string;
  manifest: string;
  /** What the manifest says besides the entries (see ScopeIndexFiles.manifestText). */
  header: ManifestHeader;
}

interface ManifestHeader {
  format: number;
  table: string;
  scope: string;
  dimension: number;
  config: typeof SCOPE_INDEX_CONFIG;
}

interface Manifest extends ManifestHeader {
  graph: string;
  graphBytes: number;
  keys: number[];
  ids: string[];
  createdAt: number[];
}

/**
 * Built scope indexes saved beside the data directory (`<WEFT_DATA_DIR>/cache-index/<table>/`), so a
 * restart loads a scope's graph instead of building it again from the table (about 90 s for 100,000
 * entries). A saved scope is a graph file and a manifest: which entry (id and created_at) each key of the
 * graph holds. It is never trusted as it is: the manifest is checked against the table's live entries
 * when the scope is loaded (scope-index-diff.ts), and what changed since is patched in.
 *
 * Crash safety: a save writes the graph under a new name and syncs it, then writes the manifest to a
 * temporary file, syncs it and renames it over the scope's manifest (atomic): a crash leaves the old
 * manifest naming the old, complete graph, or the new one naming the new graph; a graph no manifest names
 * is removed at the next save. The manifest records the graph's size, so a graph cut short is not loaded.
 * Even a wrong graph could not give a wrong answer: every lookup reads its candidates from the table
 * with their exact similarity (pgvector-semantic-cache.ts); it would only miss.
 */
export class ScopeIndexFiles {
  constructor(
    private readonly directory: string,
    private readonly table: string,
    private readonly dimension: number,
  ) {}

  /** The scope's saved graph and entries, or null when there is none this build can use. */
  async read(scope: string): Promise<SavedScope | null> {
    let manifest: Manifest;
    try {
      manifest = JSON.parse(await readFile(this.#manifestPath(scope), "utf8")) as Manifest;
    } catch {
      return null;
    }
    if (JSON.stringify(headerOf(manifest)) !== JSON.stringify(this.#header(scope))) return null;
    const { keys, ids, createdAt } = manifest;
    if (!Array.isArray(keys) || !Array.isArray(ids) || !Array.isArray(createdAt) || keys.length !== ids.length || ids.length !== createdAt.length) return null;
    const graph = join(this.directory, manifest.graph);
    const bytes = await stat(graph).then((info) => info.size, () => -1);
    return bytes === manifest.graphBytes ? { graph, keys, ids, createdAt } : null;
  }

  /** A new place to save the scope (its directory made). */
  async target(scope: string): Promise<SaveTarget> {
    await mkdir(this.directory, { recursive: true });
    return {
      graph: join(this.directory, `${fileStem(scope)}.${randomBytes(6).toString("hex")}.usearch`),
      manifest: this.#manifestPath(scope),
      header: this.#header(scope),
    };
  }

  /** Forgets the scope (it was cleared). */
  async remove(scope: string): Promise<void> {
    await rm(this.#manifestPath(scope), { force: true });
    await removeGraphs(this.directory, fileStem(scope), null);
  }

  #manifestPath(scope: string): string {
    return join(this.directory, `${fileStem(scope)}.json`);
  }

  #header(scope: string): ManifestHeader {
    return { format: FORMAT, table: this.table, scope, dimension: this.dimension, config: SCOPE_INDEX_CONFIG };
  }
}

/**
 * Completes a save once the graph is written at `target.graph` (by the thread that built it): syncs it,
 * writes the manifest naming it atomically, and removes the scope's older graphs. Run by the build worker.
 */
export async function commitSave(target: SaveTarget, entries: ScopeEntries & { keys: number[] }, graphBytes: number): Promise<void> {
  syncFile(target.graph);
  const manifest: Manifest = { ...target.header, graph: target.graph.split(/[\\/]/).at(-1)!, graphBytes, keys: entries.keys, ids: entries.ids, createdAt: entries.createdAt };
  const temporary = `${target.manifest}.${randomBytes(6).toString("hex")}.tmp`;
  writeFileSync(temporary, JSON.stringify(manifest));
  syncFile(temporary);
  renameSync(temporary, target.manifest);
  const directory = target.graph.slice(0, target.graph.length - manifest.graph.length);
  await removeGraphs(directory, manifest.graph.split(".")[0]!, manifest.graph);
}

function syncFile(path: string): void {
  const fd = openSync(path, "r+");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The scope's graph files (and leftover temporary manifests) other than `keep`. */
async function removeGraphs(directory: string, stem: string, keep: string | null): Promise<void> {
  const names = await readdir(directory).catch(() => [] as string[]);
  const stale = names.filter((name) => name.startsWith(`${stem}.`) && name !== keep && (name.endsWith(".usearch") || name.endsWith(".tmp")));
  await Promise.all(stale.map((name) => rm(join(directory, name), { force: true })));
}

function headerOf(manifest: Manifest): ManifestHeader {
  const { format, table, scope, dimension, config } = manifest;
  return { format, table, scope, dimension, config };
}

/** A scope key is any text: its file name is a digest of it. */
function fileStem(scope: string): string {
  return createHash("sha256").update(scope).digest("hex").slice(0, 32);
}
