import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, extname, join, resolve } from "node:path";
import {
  WeftError,
  type ChunkAnchor,
  type Embedder,
  type KnowledgeBaseQuery,
  type KnowledgeBaseSearch,
  type NeighbourResult,
  type RetrievalResult,
  type StoredChunk,
} from "@weft/engine";
import { chunkText, ExactVectorStore, searchCollection } from "@weft/providers";

/**
 * Knowledge bases for the command line: a folder of Markdown and text files, chunked like the API
 * chunks a document (800 characters, Markdown sections) and embedded with the local embedder into an
 * in-memory exact store the first time a run searches it. A name resolves to the folder given with
 * `--knowledge-base NAME=DIR`, else to `knowledge-bases/NAME/` beside the workflow file.
 */

export const FOLDER_LIMITS = { maxFiles: 1_000, maxFileBytes: 5 * 1024 * 1024 } as const;
const TEXT_FILES = new Set([".md", ".markdown", ".txt"]);
/** A knowledge-base name that is a plain folder name (no path separators, not `.` or `..`). */
const FOLDER_NAME = /^(?!\.{1,2}$)[\p{L}\p{N}_. -]{1,100}$/u;
/** Chunks embedded per call. */
const EMBED_BATCH = 256;

export interface FolderKnowledgeBaseOptions {
  /** The workflow file: `knowledge-bases/NAME/` beside it is NAME's default folder. */
  workflowFile: string;
  /** `--knowledge-base NAME=DIR`: folders by name, first. */
  folders: ReadonlyMap<string, string>;
  embedder: Embedder;
}

export class FolderKnowledgeBases implements KnowledgeBaseSearch {
  readonly #store = new ExactVectorStore("memory");
  readonly #loaded = new Map<string, Promise<void>>();

  constructor(private readonly options: FolderKnowledgeBaseOptions) {}

  async search(knowledgeBase: string, query: KnowledgeBaseQuery, signal: AbortSignal): Promise<RetrievalResult> {
    await this.load(knowledgeBase);
    // The in-memory store has no keyword search: alpha does not apply.
    const chunks = await searchCollection(this.options.embedder, this.#store, knowledgeBase, { ...query, alpha: 1 }, signal);
    return { chunks, store: this.#store.id };
  }

  async neighbours(knowledgeBase: string, anchors: readonly ChunkAnchor[], window: number, signal: AbortSignal): Promise<NeighbourResult> {
    await this.load(knowledgeBase);
    signal.throwIfAborted();
    return { chunks: await this.#store.neighbours(knowledgeBase, anchors, window), store: this.#store.id };
  }

  /** The folder a name stands for, or null when the name cannot be a folder. */
  folderOf(name: string): string | null {
    const given = this.options.folders.get(name);
    if (given !== undefined) return resolve(given);
    return FOLDER_NAME.test(name) ? join(dirname(resolve(this.options.workflowFile)), "knowledge-bases", name) : null;
  }

  private load(name: string): Promise<void> {
    let loading = this.#loaded.get(name);
    if (!loading) {
      loading = this.ingest(name);
      this.#loaded.set(name, loading);
    }
    return loading;
  }

  private async ingest(name: string): Promise<void> {
    const folder = this.folderOf(name);
    const files = folder === null ? null : await textFiles(folder);
    if (folder === null || files === null) {
      const where = folder === null ? "" : ` (no folder ${folder}; give one with --knowledge-base ${name}=DIR)`;
      throw new WeftError("KNOWLEDGE_BASE_NOT_FOUND", `Knowledge base "${name}" does not exist${where}.`, { details: { knowledgeBase: name } });
    }
    await this.#store.ensureCollection(name, this.options.embedder.dimension);
    const chunks: Omit<StoredChunk, "vector">[] = [];
    for (const file of files) chunks.push(...(await fileChunks(folder, file)));
    for (let start = 0; start < chunks.length; start += EMBED_BATCH) {
      const batch = chunks.slice(start, start + EMBED_BATCH);
      const vectors = await this.options.embedder.embed(batch.map((chunk) => chunk.text));
      await this.#store.upsert(name, batch.map((chunk, i) => ({ ...chunk, vector: vectors[i] as number[] })));
    }
  }
}

/** The folder's text files, sorted by name; null when it is not a folder. */
async function textFiles(folder: string): Promise<string[] | null> {
  let names: string[];
  try {
    if (!(await stat(folder)).isDirectory()) return null;
    names = await readdir(folder);
  } catch {
    return null;
  }
  const files = names.filter((name) => TEXT_FILES.has(extname(name).toLowerCase())).sort();
  if (files.length > FOLDER_LIMITS.maxFiles) {
    throw new WeftError("KNOWLEDGE_BASE_TOO_LARGE", `${folder} has ${files.length} text files; a folder knowledge base takes at most ${FOLDER_LIMITS.maxFiles}.`);
  }
  return files;
}

async function fileChunks(folder: string, file: string): Promise<Omit<StoredChunk, "vector">[]> {
  const path = join(folder, file);
  const size = (await stat(path)).size;
  if (size > FOLDER_LIMITS.maxFileBytes) {
    throw new WeftError("KNOWLEDGE_BASE_TOO_LARGE", `${path} has ${size} bytes; a file of a folder knowledge base has at most ${FOLDER_LIMITS.maxFileBytes}.`);
  }
  const markdown = extname(file).toLowerCase() !== ".txt";
  const text = await readFile(path, "utf8");
  const title = basename(file, extname(file));
  return chunkText(text, { markdown }).map((chunk) => ({
    id: `${file}#${chunk.index}`,
    text: chunk.text,
    source: { documentId: file, title, chunkIndex: chunk.index, page: null },
    metadata: { heading: chunk.headingPath.join(" > ") },
  }));
}
