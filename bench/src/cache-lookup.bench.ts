import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { cacheScopeKey, type SemanticCachePut, type SemanticCacheStore } from "@weft/engine";
import { LocalEmbedder, WeaviateSemanticCache } from "@weft/providers";
import { startWeaviateServer } from "@weft/providers/testing/weaviate-server";
// The embedded cache lives in the API (it runs on the API's database handle), behind its public entry point:
// the database opened as the API opens it, PGlite on its own thread.
import { openDatabase, PgvectorSemanticCache, type Database } from "@weft/api";
import { percentile, round } from "./exact-top-k.js";
import { machineInfo, machineLine } from "./machine-info.js";
import { writeDocSection, writeResult } from "./results-writer.js";
import { SyntheticCorpus } from "./synthetic-corpus.js";

/**
 * Semantic-cache lookups at N entries (default 100,000) in one scope, in the embedded store (pgvector in
 * PGlite) and in Weaviate: per-lookup latency of `SemanticCacheStore.lookup` (the path a cache node
 * takes: one query for the nearest live entry of the scope), for questions that were asked before in
 * other words (hits) and new questions (misses), plus lookups in a small scope of the same table.
 * Questions: seeded synthetic text embedded by the local embedder (512 dimensions).
 */

const ENTRIES = Number(process.env.WEFT_BENCH_CACHE_ENTRIES ?? 100_000);
const LOOKUPS = Number(process.env.WEFT_BENCH_CACHE_LOOKUPS ?? 1_000);
const THRESHOLD = 0.9;
const BIG = cacheScopeKey({ kind: "namespace", namespace: "bench" });
const SMALL = cacheScopeKey({ kind: "namespace", namespace: "bench-small" });

interface Workload {
  questions: string[];
  /** Stored questions asked again with one word changed; `expected` is the stored entry's question. */
  hits: { vector: number[]; expected: string }[];
  misses: number[][];
  /** As many other lookups of both kinds, asked untimed first (see warmUp()). */
  warmUpLookups: number[][];
}

function reworded(embedder: LocalEmbedder, question: string): number[] {
  const words = question.split(" ");
  words[words.length - 1] = "please";
  return embedder.embedOne(words.join(" "));
}

function workload(embedder: LocalEmbedder): Workload {
  const generator = new SyntheticCorpus({ seed: 11 });
  const questions = Array.from({ length: ENTRIES }, (_, i) => `${i} ${generator.passage(i % generator.topicCount, 10 + (i % 12))}`);
  const hits = Array.from({ length: LOOKUPS }, (_, i) => {
    const question = questions[Math.floor((i * ENTRIES) / LOOKUPS)] as string;
    return { vector: reworded(embedder, question), expected: question };
  });
  const misses = Array.from({ length: LOOKUPS }, () => embedder.embedOne(generator.passage(generator.randomTopic(), 14)));
  // Other entries than the measured ones (half-way between them) and other new questions.
  const warmUpLookups = Array.from({ length: LOOKUPS }, (_, i) => [
    reworded(embedder, questions[Math.floor(((i + 0.5) * ENTRIES) / LOOKUPS)] as string),
    embedder.embedOne(generator.passage(generator.randomTopic(), 14)),
  ]).flat();
  return { questions, hits, misses, warmUpLookups };
}

/**
 * The entries are embedded for each store's load and let go afterwards: 100,000 vectors as JavaScript
 * arrays are about 400 MB, which a server does not hold, and whose garbage collection would pause the
 * lookups measured next.
 */
async function load(cache: SemanticCacheStore, work: Workload): Promise<{ embedSeconds: number; loadSeconds: number }> {
  const embedder = new LocalEmbedder();
  const embedding = performance.now();
  const entries = work.questions.map((query, i): SemanticCachePut => ({ query, vector: embedder.embedOne(query), answer: `answer ${i}`, ttlSeconds: 86_400 }));
  const started = performance.now();
  // One call, as an import would do it: pgvector then builds its HNSW index once over the whole load.
  await cache.putMany(BIG, entries);
  await cache.putMany(SMALL, entries.slice(0, 10).map(({ query, vector }, i) => ({ query, vector, answer: `small ${i}` })));
  return { embedSeconds: round((started - embedding) / 1000), loadSeconds: round((performance.now() - started) / 1000) };
}

interface LookupFigures {
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  /** Share of lookups that found an entry (hits: the entry of the reworded question, else any). */
  found: number;
}

async function timeLookups(cache: SemanticCacheStore, scope: string, lookups: { vector: number[]; expected?: string }[]): Promise<LookupFigures> {
  const latencies: number[] = [];
  let found = 0;
  for (const lookup of lookups) {
    const started = performance.now();
    const hit = await cache.lookup(scope, lookup.vector, THRESHOLD);
    latencies.push(performance.now() - started);
    if (hit && (lookup.expected === undefined || hit.entry.query === lookup.expected)) found++;
  }
  latencies.sort((a, b) => a - b);
  return {
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    meanMs: round(latencies.reduce((a, b) => a + b, 0) / latencies.length),
    found: round(found / lookups.length, 4),
  };
}

/**
 * Untimed lookups of other questions first, as many as are measured, in both scopes: the first lookups
 * after a start run cold code (in PGlite's WebAssembly, the first few hundred took about a third longer
 * than the next ones), and a server that has been up a while has compiled it. They are other questions,
 * so the measured lookups do not find the pages they read already in the database's buffers.
 */
async function warmUp(cache: SemanticCacheStore, work: Workload): Promise<void> {
  for (const vector of work.warmUpLookups) await cache.lookup(BIG, vector, THRESHOLD);
  for (const vector of work.warmUpLookups.slice(0, 40)) await cache.lookup(SMALL, vector, THRESHOLD);
}

async function measureLookups(cache: SemanticCacheStore, work: Workload) {
  await warmUp(cache, work);
  const hits = await timeLookups(cache, BIG, work.hits);
  const misses = await timeLookups(cache, BIG, work.misses.map((vector) => ({ vector })));
  const small = await timeLookups(cache, SMALL, work.misses.map((vector) => ({ vector })));
  const all = [...work.hits, ...work.misses.map((vector) => ({ vector }))];
  const mixed = await timeLookups(cache, BIG, all);
  return { hits, misses, mixed, smallScope: small };
}

async function measure(cache: SemanticCacheStore, work: Workload) {
  const loaded = await load(cache, work);
  global.gc?.();
  return { ...loaded, ...(await measureLookups(cache, work)) };
}

/**
 * The embedded store as the API configures it: the same table, looked up through the in-memory index of
 * each scope, built (on a worker thread) before the lookups. Memory: the process's resident size before
 * and after both scopes' indexes are built.
 */
async function measureIndexed(db: Database, work: Workload) {
  const cache = new PgvectorSemanticCache(db.raw, { model: "weft-local-hash-v1", dimension: 512, memoryIndex: { maxEntries: ENTRIES + 10, waitForIndex: true } });
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const built = (await cache.prepareScope(BIG)) && (await cache.prepareScope(SMALL));
  if (!built) throw new Error("the in-memory index was not built");
  const buildSeconds = round((performance.now() - started) / 1000);
  global.gc?.();
  const indexMegabytes = round((process.memoryUsage().rss - rssBefore) / 2 ** 20);
  return { store: "pgvector 0.8.0 in PGlite 0.3, in-memory index (usearch 2.26)", buildSeconds, indexMegabytes, ...(await measureLookups(cache, work)) };
}

async function benchPgvector(work: Workload) {
  const dir = mkdtempSync(join(tmpdir(), "weft-bench-cache-"));
  const db = await openDatabase({ mode: "embedded", dataDir: join(dir, "pglite") });
  try {
    const cache = new PgvectorSemanticCache(db.raw, { model: "weft-local-hash-v1", dimension: 512 });
    const pgvector = { store: "pgvector 0.8.0 in PGlite 0.3 (on its own thread)", ...(await measure(cache, work)) };
    console.log("  pgvector:", pgvector);
    return { pgvector, indexed: await measureIndexed(db, work) };
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchWeaviate(work: Workload) {
  const server = await startWeaviateServer();
  const cache = new WeaviateSemanticCache({ url: server.url, grpcPort: server.grpcPort, model: "weft-local-hash-v1", dimension: 512 });
  try {
    return { store: "Weaviate 1.38.11", ...(await measure(cache, work)) };
  } finally {
    await cache.close();
    await server.stop();
  }
}

export async function run() {
  const machine = machineInfo();
  console.log(`cache-lookup: ${ENTRIES.toLocaleString("en")} entries, ${LOOKUPS} hit and ${LOOKUPS} miss lookups, threshold ${THRESHOLD} — ${machineLine(machine)}`);
  const work = workload(new LocalEmbedder());
  const { pgvector, indexed } = await benchPgvector(work);
  console.log("  indexed:", indexed);
  const weaviate = await benchWeaviate(work);
  console.log("  weaviate:", weaviate);
  const result = { machine, entries: ENTRIES, lookups: LOOKUPS, threshold: THRESHOLD, embedSeconds: pgvector.embedSeconds, indexed, pgvector, weaviate, loadAverage: round(loadavg()[0] ?? 0) };
  writeResult("cache-lookup", result);
  writeDocSection("cache-lookup", markdown(result));
  return result;
}

function markdown(result: Awaited<ReturnType<typeof run>>): string {
  const rows = [result.indexed, result.pgvector, result.weaviate].flatMap((entry) =>
    (["mixed", "hits", "misses", "smallScope"] as const).map((kind) => {
      const f = entry[kind];
      const label = { mixed: "all lookups", hits: "reworded questions (hits)", misses: "new questions (misses)", smallScope: "a 10-entry scope in the same table" }[kind];
      return `| ${entry.store} | ${label} | ${f.p50Ms} | ${f.p99Ms} | ${f.meanMs} | ${f.found} |`;
    }),
  );
  const verdict = (entry: { store: string; mixed: LookupFigures }) => `${entry.store.split(" ")[0]} p99 ${entry.mixed.p99Ms} ms (${entry.mixed.p99Ms <= 5 ? "met" : "NOT met"})`;
  return [
    "## Semantic cache lookup at 100,000 entries (cache-lookup)",
    "",
    `\`bench/src/cache-lookup.bench.ts\`: ${result.entries.toLocaleString("en")} entries in one scope, then ${result.lookups.toLocaleString("en")} lookups of`,
    "stored questions reworded (one word changed: they should hit their own entry) and as many new questions (they",
    `should miss), one at a time, threshold ${result.threshold}. A lookup is one \`SemanticCacheStore.lookup\` call: the nearest`,
    "live entry of the scope. Embedded, as the API runs it: the scope's in-memory HNSW index (usearch, half-precision copies of",
    "the vectors) finds the nearest entries, then the ones close to the threshold are read from PGlite with their exact",
    "similarity (a miss reads nothing). pgvector: the same table searched by SQL to PGlite on the database's thread in the",
    `same process (as with WEFT_CACHE_MEMORY_INDEX_ENTRIES=0). Weaviate: gRPC on loopback. After ${(2 * result.lookups).toLocaleString("en")} untimed`,
    "lookups of other questions of both kinds (the code is warm, as in a server that has been up a while; the measured lookups' pages are not).",
    "Questions: seeded synthetic text, local embedder (512 dimensions).",
    "",
    `Machine: ${machineLine(result.machine)}; 1-minute load average at the end of the run: ${result.loadAverage} (the machine is shared, so latencies include other work).`,
    "",
    "| store | lookups | p50 ms | p99 ms | mean ms | found |",
    "|---|---|---:|---:|---:|---:|",
    ...rows,
    "",
    "Found: for reworded questions, the share that returned their own entry; for new questions, the share that returned",
    "any entry (ideally 0). Loading (one `putMany` of every entry; pgvector builds its HNSW index once afterwards): " +
      `pgvector ${result.pgvector.loadSeconds} s, Weaviate ${result.weaviate.loadSeconds} s. The in-memory indexes of both scopes were then`,
    `built from the table in ${result.indexed.buildSeconds} s (on one worker thread); the process's resident size grew by ${result.indexed.indexMegabytes} MiB meanwhile.`,
    "",
    `Goal p99 ≤ 5 ms over all lookups: embedded ${verdict(result.indexed).replace(/^\S+ /, "")}; ${verdict(result.pgvector)} by SQL alone; ${verdict(result.weaviate)}.`,
    "Raw figures: `bench/results/cache-lookup.json`.",
  ].join("\n");
}
