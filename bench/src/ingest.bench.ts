import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";
import type { VectorStore } from "@weft/engine";
import { chunkText, ExactVectorStore, LocalEmbedder, LOCAL_EMBEDDER_MODEL, WeaviateVectorStore } from "@weft/providers";
import { startWeaviateServer } from "@weft/providers/testing/weaviate-server";
// Ingestion and the embedded store live in the API; the bench runs their sources.
import { pgliteRawSql } from "../../apps/api/src/db/raw-sql.js";
import type { PreparedDocument } from "../../apps/api/src/retrieval/document-content.js";
import { ingestDocuments, MAX_DOCUMENTS_PER_REQUEST, type DocumentPersistence, type KnowledgeBaseIndexSettings } from "../../apps/api/src/retrieval/ingestion.service.js";
import { PgvectorVectorStore } from "../../apps/api/src/retrieval/pgvector-vector-store.js";
import { round } from "./exact-top-k.js";
import { machineInfo, machineLine } from "./machine-info.js";
import { writeDocSection, writeResult } from "./results-writer.js";
import { SyntheticCorpus } from "./synthetic-corpus.js";

/**
 * Ingestion throughput with the local embedder (goal ≥ 2,000 chunks/s): chunking + embedding alone,
 * then the whole pipeline (validate, hash, chunk, embed, store) into the in-memory exact store (the
 * pipeline's own cost), into pgvector in PGlite (the embedded default) and into Weaviate.
 * Documents: seeded synthetic topical text, ~20 paragraphs each, chunk size 800 / overlap 120.
 */

const DOCUMENTS = Number(process.env.WEFT_BENCH_DOCUMENTS ?? 300);
const STORE_DOCUMENTS = Math.min(DOCUMENTS, Number(process.env.WEFT_BENCH_STORE_DOCUMENTS ?? 60));

class CountingDocuments implements DocumentPersistence {
  private next = 0;
  async findByContentHash(): Promise<null> {
    return null;
  }
  async createDocument(_kb: string, _document: PreparedDocument) {
    return { id: `doc-${this.next++}` };
  }
  async markIndexing(): Promise<void> {}
  async markReady(): Promise<void> {}
  async markFailed(_id: string, error: string): Promise<void> {
    throw new Error(`ingestion failed during the benchmark: ${error}`);
  }
}

const kbFor = (store: VectorStore): KnowledgeBaseIndexSettings => ({
  id: `bench_${store.id.replace(/\W/g, "_")}`,
  name: "bench",
  embeddingModel: LOCAL_EMBEDDER_MODEL,
  dimension: 512,
  store: store.id,
  chunkSize: 800,
  chunkOverlap: 120,
});

interface Throughput {
  documents: number;
  chunks: number;
  seconds: number;
  chunksPerSecond: number;
}

function throughput(documents: number, chunks: number, seconds: number): Throughput {
  return { documents, chunks, seconds: round(seconds), chunksPerSecond: Math.round(chunks / seconds) };
}

async function chunkAndEmbed(texts: readonly string[], embedder: LocalEmbedder): Promise<Throughput> {
  let best = Number.POSITIVE_INFINITY;
  let chunks = 0;
  for (let repeat = 0; repeat < 3; repeat++) {
    const started = performance.now();
    chunks = 0;
    for (const text of texts) {
      const pieces = chunkText(text, { size: 800, overlap: 120 });
      await embedder.embed(pieces.map((piece) => piece.text));
      chunks += pieces.length;
    }
    best = Math.min(best, (performance.now() - started) / 1000);
  }
  return throughput(texts.length, chunks, best);
}

async function pipeline(store: VectorStore, texts: readonly string[], embedder: LocalEmbedder): Promise<Throughput> {
  const persistence = new CountingDocuments();
  const started = performance.now();
  let chunks = 0;
  // As a client would: requests of at most MAX_DOCUMENTS_PER_REQUEST documents.
  for (let start = 0; start < texts.length; start += MAX_DOCUMENTS_PER_REQUEST) {
    const documents = texts.slice(start, start + MAX_DOCUMENTS_PER_REQUEST).map((content, i) => ({ title: `Document ${start + i}`, content }));
    const outcomes = await ingestDocuments(kbFor(store), documents, { store, embedders: [embedder], persistence });
    chunks += outcomes.reduce((sum, outcome) => sum + (outcome.status === "READY" ? outcome.chunkCount : 0), 0);
  }
  return throughput(texts.length, chunks, (performance.now() - started) / 1000);
}

/** Only the VectorStore methods: ingestion cannot suspend the index, so every row goes into the HNSW graph. */
function incrementalOnly(store: PgvectorVectorStore): VectorStore {
  return {
    id: store.id,
    ensureCollection: (collection, dimension) => store.ensureCollection(collection, dimension),
    dropCollection: (collection) => store.dropCollection(collection),
    upsert: (collection, chunks) => store.upsert(collection, chunks),
    deleteDocument: (collection, documentId) => store.deleteDocument(collection, documentId),
    search: (collection, query, signal) => store.search(collection, query, signal),
    searchMany: (collection, query, signal) => store.searchMany(collection, query, signal),
    neighbours: (collection, anchors, window, signal) => store.neighbours(collection, anchors, window, signal),
    keywordSearch: store.keywordSearch,
  };
}

async function intoPgvector(texts: readonly string[], embedder: LocalEmbedder, mode: "incremental" | "default"): Promise<Throughput> {
  const dir = mkdtempSync(join(tmpdir(), "weft-bench-ingest-"));
  const db = await PGlite.create({ dataDir: dir, extensions: { vector } });
  try {
    const store = new PgvectorVectorStore(pgliteRawSql(db));
    return await pipeline(mode === "incremental" ? incrementalOnly(store) : store, texts, embedder);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function intoWeaviate(texts: readonly string[], embedder: LocalEmbedder): Promise<Throughput> {
  const server = await startWeaviateServer();
  const store = new WeaviateVectorStore({ url: server.url, grpcPort: server.grpcPort, batchSize: 500 });
  try {
    return await pipeline(store, texts, embedder);
  } finally {
    await store.close();
    await server.stop();
  }
}

type IngestResult = Awaited<ReturnType<typeof run>>;

function markdown(result: IngestResult): string {
  const row = (label: string, t: Throughput) => `| ${label} | ${t.documents} | ${t.chunks} | ${t.seconds} | ${t.chunksPerSecond} |`;
  const met = result.chunkAndEmbed.chunksPerSecond >= 2000;
  return [
    "## Ingestion throughput with the local embedder (ingest)",
    "",
    "`bench/src/ingest.bench.ts`: seeded synthetic topical documents (~20 paragraphs, English-like and Hangul words),",
    "chunk size 800, overlap 120, local embedder weft-local-hash-v1 (512 dimensions). Chunk + embed is the best of 3 runs;",
    "the pipelines run `ingestDocuments` (validation, sha256 duplicate check, chunking, embedding in batches of 64, upsert) once.",
    "",
    `Machine: ${machineLine(result.machine)}; 1-minute load average at the end of the run: ${result.loadAverage} (the machine is shared, so latencies include other work).`,
    "",
    "| stage | documents | chunks | seconds | chunks/s |",
    "|---|---:|---:|---:|---:|",
    row("chunk + embed (no store)", result.chunkAndEmbed),
    row("pipeline → in-memory exact store", result.pipelineExact),
    row("pipeline → pgvector in PGlite, HNSW updated per insert", result.pipelinePgvectorIncremental),
    row("pipeline → pgvector in PGlite, default (large load: index built once after)", result.pipelinePgvector),
    row("pipeline → Weaviate (loopback)", result.pipelineWeaviate),
    "",
    `Goal ≥ 2,000 chunks/s for chunking + local embedding: ${met ? "met" : "NOT met"}. Storing is the bottleneck in the embedded`,
    "store, and within it the HNSW insert: pgvector in PGlite (single-threaded WebAssembly) adds each row to its graph",
    "separately whatever the statement shape — in a one-off probe of the same 1,193 rows, single-row, 64- and 500-row multi-row INSERTs and `unnest` of arrays all ran at",
    "~200–220 rows/s with the index, against ~1,900 rows/s (multi-row) and ~960 rows/s (single-row) without it. So a large",
    "load into a collection that is empty or small next to it (`bulk-load-policy.ts`: ≥ 256 new chunks and at most 2× as",
    "many already stored) drops the index and builds it once afterwards (`PgvectorVectorStore.withIndexSuspended`);",
    "smaller additions keep the index live. Raw figures: `bench/results/ingest.json`.",
  ].join("\n");
}

export async function run() {
  const machine = machineInfo();
  console.log(`ingest: ${DOCUMENTS} documents (${STORE_DOCUMENTS} into real stores) — ${machineLine(machine)}`);
  const corpus = new SyntheticCorpus({ seed: 11 });
  const texts = Array.from({ length: DOCUMENTS }, (_, i) => corpus.document(i * 3, 20));
  const embedder = new LocalEmbedder();
  const chunkAndEmbedFigures = await chunkAndEmbed(texts, embedder);
  console.log("  chunk + embed:", chunkAndEmbedFigures);
  const pipelineExact = await pipeline(new ExactVectorStore(), texts, embedder);
  console.log("  pipeline → exact store:", pipelineExact);
  const storeTexts = texts.slice(0, STORE_DOCUMENTS);
  const pipelinePgvectorIncremental = await intoPgvector(storeTexts, embedder, "incremental");
  console.log("  pipeline → pgvector, HNSW per insert:", pipelinePgvectorIncremental);
  const pipelinePgvector = await intoPgvector(storeTexts, embedder, "default");
  console.log("  pipeline → pgvector, default:", pipelinePgvector);
  const pipelineWeaviate = await intoWeaviate(storeTexts, embedder);
  console.log("  pipeline → weaviate:", pipelineWeaviate);
  const result = { benchmark: "ingest", machine, loadAverage: round(loadavg()[0] ?? 0), chunkAndEmbed: chunkAndEmbedFigures, pipelineExact, pipelinePgvectorIncremental, pipelinePgvector, pipelineWeaviate };
  writeResult("ingest", result);
  writeDocSection("ingest", markdown(result));
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await run();
