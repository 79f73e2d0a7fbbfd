import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { cacheScopeKey, type SemanticCachePut } from "@weft/engine";
import { LocalEmbedder } from "@weft/providers";
// The embedded store as the API runs it: the database opened as the API opens it (PGlite on its own thread).
import { openDatabase, PgvectorSemanticCache, type Database } from "@weft/api";
import { round } from "./exact-top-k.js";
import { machineInfo, machineLine } from "./machine-info.js";
import { writeDocSection, writeResult } from "./results-writer.js";
import { SyntheticCorpus } from "./synthetic-corpus.js";

/**
 * How long a semantic-cache scope of N entries (default 100,000) takes to be looked up through its
 * in-memory index after the API starts, on the embedded database on disk:
 *
 * - the first time (no saved index): the graph built from the table on a worker thread;
 * - after a restart with nothing changed: the saved graph loaded and checked against the table;
 * - after a restart with changes made while the API was down (as after a crash): 1,000 new entries,
 *   500 stored again with another vector, 500 expired, patched into the saved graph.
 *
 * A restart closes the database and opens it again, as a new process does; the time is that of the
 * scope's first `prepareScope` (what its first lookup starts), the database's own opening not included.
 * After each, reworded stored questions are looked up to show the index finds what it should.
 */
const ENTRIES = Number(process.env.WEFT_BENCH_CACHE_ENTRIES ?? 100_000);
const CHECKS = 500;
const SCOPE = cacheScopeKey({ kind: "namespace", namespace: "bench" });
const MODEL = "weft-local-hash-v1";
const THRESHOLD = 0.9;
const CHANGES = { added: 1_000, storedAgain: 500, expired: 500 };

function questions(): string[] {
  const generator = new SyntheticCorpus({ seed: 11 });
  return Array.from({ length: ENTRIES }, (_, i) => `${i} ${generator.passage(i % generator.topicCount, 10 + (i % 12))}`);
}

function reworded(embedder: LocalEmbedder, question: string): number[] {
  const words = question.split(" ");
  words[words.length - 1] = "please";
  return embedder.embedOne(words.join(" "));
}

async function load(db: Database, all: string[]): Promise<number> {
  const embedder = new LocalEmbedder();
  const started = performance.now();
  const cache = new PgvectorSemanticCache(db.raw, { model: MODEL, dimension: 512 });
  const puts = all.map((query, i): SemanticCachePut => ({ query, vector: embedder.embedOne(query), answer: `answer ${i}`, ttlSeconds: 86_400 }));
  await cache.putMany(SCOPE, puts);
  return round((performance.now() - started) / 1000);
}

interface Start {
  seconds: number;
  /** Reworded stored questions that found their own entry (of CHECKS). */
  found: number;
}

/** A store as a newly started API has it, timed from its first use of the scope until its index is ready. */
async function start(db: Database, directory: string, all: string[], now = Date.now): Promise<Start> {
  const cache = new PgvectorSemanticCache(db.raw, { model: MODEL, dimension: 512, now, memoryIndex: { maxEntries: ENTRIES * 2, waitForIndex: true, directory } });
  const started = performance.now();
  if (!(await cache.prepareScope(SCOPE))) throw new Error("the scope's index was not built");
  const seconds = round((performance.now() - started) / 1000);
  const embedder = new LocalEmbedder();
  let found = 0;
  for (let i = 0; i < CHECKS; i++) {
    const question = all[Math.floor((i * all.length) / CHECKS)]!;
    const hit = await cache.lookup(SCOPE, reworded(embedder, question), THRESHOLD);
    if (hit?.entry.query === question) found++;
  }
  return { seconds, found: round(found / CHECKS, 3) };
}

/** While no API runs: entries added, stored again with another vector, and short-lived ones that have expired by the restart. */
async function changeWhileDown(db: Database, all: string[]): Promise<string[]> {
  const embedder = new LocalEmbedder();
  const generator = new SyntheticCorpus({ seed: 29 });
  const cache = new PgvectorSemanticCache(db.raw, { model: MODEL, dimension: 512 });
  const added = Array.from({ length: CHANGES.added }, (_, i) => `new ${i} ${generator.passage(i % generator.topicCount, 12)}`);
  await cache.putMany(SCOPE, added.map((query, i) => ({ query, vector: embedder.embedOne(query), answer: `new ${i}` })));
  const again = all.slice(0, CHANGES.storedAgain);
  await cache.putMany(SCOPE, again.map((query, i) => ({ query, vector: embedder.embedOne(`${query} again`), answer: `again ${i}` })));
  const shortLived = all.slice(CHANGES.storedAgain, CHANGES.storedAgain + CHANGES.expired);
  await cache.putMany(SCOPE, shortLived.map((query, i) => ({ query, vector: embedder.embedOne(query), answer: `brief ${i}`, ttlSeconds: 1 })));
  return [...added, ...all.slice(CHANGES.storedAgain + CHANGES.expired)];
}

export async function run() {
  const machine = machineInfo();
  console.log(`cache-index-start: ${ENTRIES.toLocaleString("en")} entries — ${machineLine(machine)}`);
  const dir = mkdtempSync(join(tmpdir(), "weft-bench-cache-start-"));
  const dataDir = join(dir, "pglite");
  const directory = join(dir, "cache-index");
  const all = questions();
  let db = await openDatabase({ mode: "embedded", dataDir });
  const reopen = async () => {
    await db.close();
    db = await openDatabase({ mode: "embedded", dataDir });
  };
  try {
    const loadSeconds = await load(db, all);
    console.log(`  loaded in ${loadSeconds} s`);
    await reopen();
    const first = await start(db, directory, all);
    console.log("  first start (build):", first);
    await reopen();
    const unchanged = await start(db, directory, all);
    console.log("  restart, nothing changed:", unchanged);
    await reopen();
    const remaining = await changeWhileDown(db, all);
    await reopen();
    const changed = await start(db, directory, remaining, () => Date.now() + 10_000);
    console.log("  restart after changes:", changed);
    const result = { machine, entries: ENTRIES, loadSeconds, first, unchanged, changed, changes: CHANGES, loadAverage: round(loadavg()[0] ?? 0) };
    writeResult("cache-index-start", result);
    writeDocSection("cache-index-start", markdown(result));
    return result;
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function markdown(result: Awaited<ReturnType<typeof run>>): string {
  const row = (label: string, start: Start) => `| ${label} | ${start.seconds} s | ${start.found} |`;
  return [
    `## Semantic cache: a scope's lookup index after a start (cache-index-start)`,
    "",
    `\`bench/src/cache-index-start.bench.ts\`: one scope of ${result.entries.toLocaleString("en")} entries (local embedder, 512 dimensions) in the`,
    "embedded database on disk; the time from a newly started store's first use of the scope until its in-memory index",
    "(usearch) answers, the database closed and opened again before each start as a new process would. Found: of",
    `${CHECKS} stored questions asked again reworded, the share that found their own entry through the index (threshold ${THRESHOLD}).`,
    "",
    `Machine: ${machineLine(result.machine)}; 1-minute load average at the end: ${result.loadAverage} (the machine is shared).`,
    "",
    "| start | index ready after | found |",
    "|---|---:|---:|",
    row("first start: built from the table (no saved index)", result.first),
    row("restart, nothing changed: the saved index loaded, checked against the table", result.unchanged),
    row(
      `restart after ${result.changes.added.toLocaleString("en")} entries added, ${result.changes.storedAgain} stored again and ${result.changes.expired} expired while down: patched`,
      result.changed,
    ),
    "",
    `Loading the entries (one \`putMany\`, pgvector's HNSW index built once after): ${result.loadSeconds} s.`,
    "Raw figures: `bench/results/cache-index-start.json`.",
  ].join("\n");
}
