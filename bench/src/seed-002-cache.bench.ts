import { loadavg } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Workflow } from "@weft/engine";
import { configureProviders, loadEnv, readWorkflowFile, runWorkflowFile, type ConfiguredProviders } from "@weft/cli";
import { percentile, round } from "./exact-top-k.js";
import { machineInfo, machineLine } from "./machine-info.js";
import { writeDocSection, writeResult } from "./results-writer.js";

/**
 * The seed-002 template (examples/seed-002-query-flow.json) end to end, as `weft run` runs it
 * (runWorkflowFile: prepareRun, the engine, the folder knowledge base, the offline web corpus, the
 * semantic cache in memory), with a cache miss — the whole flow: plan, retrieval loop twice, rerank,
 * judge, generate, grade, store — against a cache hit, which answers from `cache_lookup`. Misses get a
 * fresh cache (new providers) each time; hits ask the question a primed cache holds.
 *
 * Two model settings: the offline scripted model as shipped (answers at once, so the figures are Weft's
 * own work), and the same with `params.delayMs` on every model node, standing in for a model's latency.
 */

const FILE = resolve(fileURLToPath(import.meta.url), "../../../examples/seed-002-query-flow.json");
const RUNS = Number(process.env.WEFT_BENCH_SEED_CACHE_RUNS ?? 40);
const SIMULATED_MODEL_MS = Number(process.env.WEFT_BENCH_SEED_CACHE_MODEL_MS ?? 200);
const SIMULATED_RUNS = Math.max(5, Math.round(RUNS / 4));
const env = loadEnv({});

interface Figures {
  p50Ms: number;
  p90Ms: number;
  meanMs: number;
  runs: number;
}

async function once(workflow: Workflow, providers: ConfiguredProviders, expect: "hit" | "miss"): Promise<number> {
  let hit = false;
  const started = performance.now();
  const result = await runWorkflowFile({ file: FILE, workflow, onEvent: (event) => void (event.type === "CACHE_HIT" && (hit = true)) }, providers, env);
  const elapsed = performance.now() - started;
  if (!result.ok || result.outcome.status !== "COMPLETED") throw new Error("the seed-002 template did not complete");
  if (hit !== (expect === "hit")) throw new Error(`expected a cache ${expect}`);
  return elapsed;
}

function figures(samples: number[]): Figures {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50Ms: round(percentile(sorted, 50)), p90Ms: round(percentile(sorted, 90)), meanMs: round(sorted.reduce((a, b) => a + b, 0) / sorted.length), runs: sorted.length };
}

async function compare(workflow: Workflow, runs: number): Promise<{ miss: Figures; hit: Figures; ratio: number }> {
  const misses: number[] = [];
  const hits: number[] = [];
  const primed = configureProviders(env);
  await once(workflow, primed, "miss");
  for (let i = 0; i < 3; i += 1) {
    await once(workflow, configureProviders(env), "miss");
    await once(workflow, primed, "hit");
  }
  // Interleaved, so a change in the machine's load touches both alike.
  for (let i = 0; i < runs; i += 1) {
    misses.push(await once(workflow, configureProviders(env), "miss"));
    hits.push(await once(workflow, primed, "hit"));
  }
  const miss = figures(misses);
  const hit = figures(hits);
  return { miss, hit, ratio: round(miss.p50Ms / hit.p50Ms, 1) };
}

/** The template with every model node waiting `delayMs` before it answers. */
function withModelLatency(workflow: Workflow, delayMs: number): Workflow {
  const copy = structuredClone(workflow);
  for (const node of copy.nodes) if (node.provider === "offline") node.params = { ...node.params, delayMs };
  return copy;
}

export async function run(): Promise<void> {
  const read = await readWorkflowFile(FILE);
  if (!read.ok) throw new Error(`${FILE}: ${read.error.message}`);
  const loadBefore = round(loadavg()[0] ?? 0, 2);
  const instant = await compare(read.workflow, RUNS);
  const simulated = await compare(withModelLatency(read.workflow, SIMULATED_MODEL_MS), SIMULATED_RUNS);
  const machine = machineInfo();
  const result = { machine, loadAverageBefore: loadBefore, instantModels: instant, simulatedModelMs: SIMULATED_MODEL_MS, simulatedModels: simulated };
  writeResult("seed-002-cache", result);
  const row = (label: string, r: typeof instant) =>
    `| ${label} | ${r.miss.p50Ms} / ${r.miss.p90Ms} | ${r.hit.p50Ms} / ${r.hit.p90Ms} | ×${r.ratio} | ${r.miss.runs} + ${r.hit.runs} |`;
  const text = [
    "## Seed 002 template: cache hit versus miss (seed-002-cache)",
    "",
    "`pnpm bench -- seed-002-cache`: `examples/seed-002-query-flow.json` end to end as `weft run` runs it (folder knowledge base,",
    "offline web corpus, semantic cache in memory, local embedder). A miss runs the whole flow (plan, two retrieval iterations,",
    "rerank, judge, generate, grade, store) on a fresh cache; a hit answers from `cache_lookup` and skips the rest.",
    "",
    `Machine: ${machineLine(machine)} · load average ${loadBefore} before, ${machine.loadAverage} after (shared machine).`,
    "",
    "| models | miss p50 / p90 (ms) | hit p50 / p90 (ms) | miss ÷ hit (p50) | runs |",
    "|---|---|---|---|---|",
    row("offline scripted, instant", instant),
    row(`offline scripted, ${SIMULATED_MODEL_MS} ms per call`, simulated),
    "",
    "With instant models the miss's extra time is Weft's own work on the way (a miss also reads and embeds the knowledge-base",
    "folder on first search, as each `weft run` does); with a model's latency the seven model calls of a miss dominate and a",
    "hit saves nearly all of it. Raw figures: `bench/results/seed-002-cache.json`.",
  ].join("\n");
  writeDocSection("seed-002-cache", text);
  console.log(text);
}
