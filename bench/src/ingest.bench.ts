import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { chunkText, LocalEmbedder } from "@weft/providers";
import { startWeaviateServer } from "@weft/providers/testing/weaviate-server";
import { startApi, type ApiHarness } from "./api-harness.js";
import { round } from "./exact-top-k.js";
import { machineInfo, machineLine } from "./machine-info.js";
import { writeDocSection, writeResult } from "./results-writer.js";
import { SyntheticCorpus } from "./synthetic-corpus.js";

/**
 * Ingestion throughput with the local embedder (goal ≥ 2,000 chunks/s): chunking + embedding alone, then
 * the path production takes — `addDocuments` over HTTP into the built API (validation, duplicate check,
 * storing PENDING, the ingestion queue, the document indexer: chunk, embed, store) with
 * `waitForIndexing: true` — into pgvector in PGlite (the embedded default) and into Weaviate.
 * Documents: seeded synthetic topical text, ~20 paragraphs each, chunk size 800 / overlap 120.
 */

const DOCUMENTS = Number(process.env.WEFT_BENCH_DOCUMENTS ?? 300);
const STORE_DOCUMENTS = Math.min(DOCUMENTS, Number(process.env.WEFT_BENCH_STORE_DOCUMENTS ?? 60));
/** Documents added one request each to a filled knowledge base: small additions keep the HNSW index live. */
const SMALL_ADDITIONS = Number(process.env.WEFT_BENCH_SMALL_ADDITIONS ?? 10);
/** The API's limit per addDocuments request. */
const DOCUMENTS_PER_REQUEST = 100;

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

const ADD_DOCUMENTS = `mutation ($id: ID!, $documents: [DocumentInput!]!) {
  addDocuments(knowledgeBaseId: $id, documents: $documents, waitForIndexing: true) {
    documents { status chunkCount error }
    errors { code message }
  }
}`;

interface Added {
  addDocuments: { documents: { status: string; chunkCount: number; error: string | null }[]; errors: { code: string; message: string }[] };
}

/** Adds documents in requests of `perRequest`, each answered once indexed; returns the chunks stored. */
async function addDocuments(api: ApiHarness, knowledgeBaseId: string, texts: readonly string[], offset: number, perRequest: number): Promise<number> {
  let chunks = 0;
  for (let start = 0; start < texts.length; start += perRequest) {
    const documents = texts.slice(start, start + perRequest).map((content, i) => ({ title: `Document ${offset + start + i}`, content }));
    const { addDocuments: added } = await api.request<Added>(ADD_DOCUMENTS, { id: knowledgeBaseId, documents });
    const failed = added.documents.find((document) => document.status !== "READY");
    if (added.errors.length > 0 || failed) throw new Error(`ingestion failed during the benchmark: ${JSON.stringify(added.errors[0] ?? failed)}`);
    chunks += added.documents.reduce((sum, document) => sum + document.chunkCount, 0);
  }
  return chunks;
}

interface StoreFigures {
  /** One large load into a new knowledge base (pgvector builds its index once, after the load). */
  load: Throughput;
  /** Then one document per request into the filled knowledge base (the index is updated per insert). */
  additions: Throughput;
}

async function throughTheApi(texts: readonly string[], extra: readonly string[], env: Record<string, string> = {}): Promise<StoreFigures> {
  const api = await startApi({ env });
  try {
    const created = await api.request<{ createKnowledgeBase: { knowledgeBase: { id: string } } }>(
      `mutation { createKnowledgeBase(input: { name: "bench", chunkSize: 800, chunkOverlap: 120 }) { knowledgeBase { id } errors { code message } } }`,
    );
    const id = created.createKnowledgeBase.knowledgeBase.id;
    let started = performance.now();
    const loaded = await addDocuments(api, id, texts, 0, DOCUMENTS_PER_REQUEST);
    const load = throughput(texts.length, loaded, (performance.now() - started) / 1000);
    started = performance.now();
    const added = await addDocuments(api, id, extra, texts.length, 1);
    return { load, additions: throughput(extra.length, added, (performance.now() - started) / 1000) };
  } finally {
    await api.close();
  }
}

async function throughWeaviate(texts: readonly string[], extra: readonly string[]): Promise<StoreFigures> {
  const server = await startWeaviateServer();
  try {
    return await throughTheApi(texts, extra, { WEAVIATE_URL: server.url, WEAVIATE_GRPC_PORT: String(server.grpcPort) });
  } finally {
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
    "chunk size 800, overlap 120, local embedder weft-local-hash-v1 (512 dimensions). Chunk + embed is the best of 3 runs.",
    "The rest is the production path, timed from the client: `addDocuments` over HTTP into the built API with",
    "`waitForIndexing: true` (validation, sha256 duplicate check, documents stored PENDING, the ingestion queue, the document",
    `indexer chunking, embedding in batches of 64 and storing), first in requests of ${DOCUMENTS_PER_REQUEST} documents into a new knowledge base,`,
    `then ${SMALL_ADDITIONS} documents one request each into the filled one.`,
    "",
    `Machine: ${machineLine(result.machine)}; 1-minute load average at the end of the run: ${result.loadAverage} (the machine is shared, so latencies include other work).`,
    "",
    "| stage | documents | chunks | seconds | chunks/s |",
    "|---|---:|---:|---:|---:|",
    row("chunk + embed (no store, no API)", result.chunkAndEmbed),
    row("API → pgvector in PGlite, large load into a new knowledge base (index built once after)", result.pgvector.load),
    row("API → pgvector in PGlite, one document per request into the filled one (index updated per insert)", result.pgvector.additions),
    row("API → Weaviate (loopback), large load", result.weaviate.load),
    row("API → Weaviate (loopback), one document per request", result.weaviate.additions),
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
  console.log(`ingest: ${DOCUMENTS} documents (${STORE_DOCUMENTS} + ${SMALL_ADDITIONS} through the API) — ${machineLine(machine)}`);
  const corpus = new SyntheticCorpus({ seed: 11 });
  const texts = Array.from({ length: DOCUMENTS + SMALL_ADDITIONS }, (_, i) => corpus.document(i * 3, 20));
  const chunkAndEmbedFigures = await chunkAndEmbed(texts.slice(0, DOCUMENTS), new LocalEmbedder());
  console.log("  chunk + embed:", chunkAndEmbedFigures);
  const storeTexts = texts.slice(0, STORE_DOCUMENTS);
  const extra = texts.slice(DOCUMENTS, DOCUMENTS + SMALL_ADDITIONS);
  const pgvector = await throughTheApi(storeTexts, extra);
  console.log("  API → pgvector:", pgvector);
  const weaviate = await throughWeaviate(storeTexts, extra);
  console.log("  API → weaviate:", weaviate);
  const result = { benchmark: "ingest", machine, loadAverage: round(loadavg()[0] ?? 0), chunkAndEmbed: chunkAndEmbedFigures, pgvector, weaviate };
  writeResult("ingest", result);
  writeDocSection("ingest", markdown(result));
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await run();
