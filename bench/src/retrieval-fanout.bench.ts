import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";
import type { StoredChunk, VectorStore } from "@weft/engine";
import { LocalEmbedder, WeaviateVectorStore } from "@weft/providers";
import { startWeaviateServer } from "@weft/providers/testing/weaviate-server";
// The embedded store lives in the API (it runs on the API's database handle), behind its public entry point.
import { pgliteRawSql, PgvectorVectorStore } from "@weft/api";
import { percentile, round } from "./exact-top-k.js";
import { machineInfo, machineLine } from "./machine-info.js";
import { writeDocSection, writeResult } from "./results-writer.js";
import { SyntheticCorpus } from "./synthetic-corpus.js";

/**
 * Multi-query retrieval: the same question asked as one query and as three variants (the fan-out of a
 * `retrieve` node with `queries`), over N chunks (default 20,000) in pgvector (PGlite) and Weaviate.
 * Each measurement embeds the query texts with the local embedder and calls the store (`search` for
 * one, `searchMany` for three: merged by chunk id, best score kept), as retrieval does.
 */

const CHUNKS = Number(process.env.WEFT_BENCH_FANOUT_CHUNKS ?? 20_000);
const QUESTIONS = Number(process.env.WEFT_BENCH_FANOUT_QUESTIONS ?? 200);
const TOP_K = 10;
const COLLECTION = "bench_fanout";

interface Workload {
  chunks: StoredChunk[];
  /** Per question: the question and two rewordings. */
  questions: [string, string, string][];
}

function workload(embedder: LocalEmbedder): Workload {
  const generator = new SyntheticCorpus({ seed: 5 });
  const chunks = Array.from({ length: CHUNKS }, (_, i): StoredChunk => {
    const text = generator.passage(i % generator.topicCount, 50 + (i % 30));
    return { id: `c${i}`, text, vector: embedder.embedOne(text), source: { documentId: `d${Math.floor(i / 20)}`, title: `Document ${Math.floor(i / 20)}`, chunkIndex: i % 20, page: null } };
  });
  const questions = Array.from({ length: QUESTIONS }, (): [string, string, string] => {
    const topic = generator.randomTopic();
    return [generator.passage(topic, 12), generator.passage(topic, 12), generator.passage(topic, 12)];
  });
  return { chunks, questions };
}

interface Figures {
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
}

async function time(work: Workload, ask: (texts: string[]) => Promise<string[]>, fanOut: boolean): Promise<{ figures: Figures; ids: string[][] }> {
  for (const question of work.questions.slice(0, 20)) await ask(fanOut ? question : [question[0]]);
  const latencies: number[] = [];
  const ids: string[][] = [];
  for (const question of work.questions) {
    const started = performance.now();
    ids.push(await ask(fanOut ? question : [question[0]]));
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  const figures = {
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    meanMs: round(latencies.reduce((a, b) => a + b, 0) / latencies.length),
  };
  return { figures, ids };
}

/** Chunks of the fan-out's top list that the single query did not return, per question on average. */
function newChunks(one: string[][], three: string[][]): number {
  const added = three.reduce((sum, ids, i) => sum + ids.filter((id) => !(one[i] ?? []).includes(id)).length, 0);
  return round(added / Math.max(1, three.length), 2);
}

async function measure(store: VectorStore, embedder: LocalEmbedder, work: Workload) {
  const ask = async (texts: string[]) => {
    const vectors = await embedder.embed(texts);
    const queries = texts.map((text, i) => ({ vector: vectors[i] as number[], text }));
    const hits = queries.length === 1 ? await store.search(COLLECTION, { ...queries[0]!, topK: TOP_K, alpha: 1 }) : await store.searchMany(COLLECTION, { queries, topK: TOP_K, alpha: 1 });
    return hits.map((hit) => hit.id);
  };
  const single = await time(work, ask, false);
  const fanOut = await time(work, ask, true);
  const [one, three] = [single.figures, fanOut.figures];
  return { one, three, newChunksInTop: newChunks(single.ids, fanOut.ids), ratioP50: round(three.p50Ms / one.p50Ms, 2), ratioMean: round(three.meanMs / one.meanMs, 2) };
}

async function load(store: VectorStore, work: Workload): Promise<void> {
  for (let start = 0; start < work.chunks.length; start += 1000) await store.upsert(COLLECTION, work.chunks.slice(start, start + 1000));
}

async function benchPgvector(embedder: LocalEmbedder, work: Workload) {
  const dir = mkdtempSync(join(tmpdir(), "weft-bench-fanout-"));
  const db = await PGlite.create({ dataDir: dir, extensions: { vector } });
  try {
    const store = new PgvectorVectorStore(pgliteRawSql(db));
    await store.ensureCollection(COLLECTION, embedder.dimension);
    await store.withIndexSuspended(COLLECTION, () => load(store, work));
    return { store: "pgvector 0.8.0 in PGlite 0.3", ...(await measure(store, embedder, work)) };
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchWeaviate(embedder: LocalEmbedder, work: Workload) {
  const server = await startWeaviateServer();
  const store = new WeaviateVectorStore({ url: server.url, grpcPort: server.grpcPort });
  try {
    await store.ensureCollection(COLLECTION, embedder.dimension);
    await load(store, work);
    return { store: "Weaviate 1.38.11", ...(await measure(store, embedder, work)) };
  } finally {
    await store.close();
    await server.stop();
  }
}

export async function run() {
  const machine = machineInfo();
  console.log(`retrieval-fanout: ${CHUNKS.toLocaleString("en")} chunks, ${QUESTIONS} questions, top ${TOP_K} — ${machineLine(machine)}`);
  const embedder = new LocalEmbedder();
  const work = workload(embedder);
  const pgvector = await benchPgvector(embedder, work);
  console.log("  pgvector:", pgvector);
  const weaviate = await benchWeaviate(embedder, work);
  console.log("  weaviate:", weaviate);
  const result = { machine, chunks: CHUNKS, questions: QUESTIONS, topK: TOP_K, pgvector, weaviate, loadAverage: round(loadavg()[0] ?? 0) };
  writeResult("retrieval-fanout", result);
  writeDocSection("retrieval-fanout", markdown(result));
  return result;
}

function markdown(result: Awaited<ReturnType<typeof run>>): string {
  const rows = [result.pgvector, result.weaviate].flatMap((entry) => [
    `| ${entry.store} | 1 query | ${entry.one.p50Ms} | ${entry.one.p99Ms} | ${entry.one.meanMs} | — |`,
    `| ${entry.store} | 3 queries, merged | ${entry.three.p50Ms} | ${entry.three.p99Ms} | ${entry.three.meanMs} | ${entry.newChunksInTop} |`,
  ]);
  return [
    "## Multi-query retrieval: 3-query fan-out versus one query (retrieval-fanout)",
    "",
    `\`bench/src/retrieval-fanout.bench.ts\`: ${result.questions} questions over ${result.chunks.toLocaleString("en")} chunks, top ${result.topK}, vectors only.`,
    "One query: embed the question and `search`. Fan-out: embed the question and two rewordings (same topic, other",
    "words) and `searchMany` (pgvector: the three queries one after the other in one transaction; Weaviate: in",
    "parallel over gRPC), merged by chunk id with the best score kept. Latency per question, after 20 warm-ups.",
    "",
    `Machine: ${machineLine(result.machine)}; 1-minute load average at the end of the run: ${result.loadAverage} (the machine is shared, so latencies include other work).`,
    "",
    `| store | retrieval | p50 ms | p99 ms | mean ms | chunks of the top ${result.topK} the single query did not find |`,
    "|---|---|---:|---:|---:|---:|",
    ...rows,
    "",
    `Fan-out ÷ one query (p50): pgvector ${result.pgvector.ratioP50}×, Weaviate ${result.weaviate.ratioP50}× (means: ${result.pgvector.ratioMean}×, ${result.weaviate.ratioMean}×).`,
    "Raw figures: `bench/results/retrieval-fanout.json`.",
  ].join("\n");
}
