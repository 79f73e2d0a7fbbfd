import { builtInRegistry, runWorkflow } from "@weft/engine";
import { buildLangGraph } from "./langgraph-topology.js";
import { machineInfo, machineLine } from "./machine-info.js";
import { preparedRun } from "./prepared-run.js";
import { measure, planFor, type Measurement } from "./measure.js";
import { writeDocSection, writeResult } from "./results-writer.js";
import { stubProvider } from "./stub-provider.js";
import { buildTopology, type Topology } from "./topologies.js";

const SIZES = [10, 100, 1_000, 10_000];
const TOPOLOGIES: Topology[] = ["chain", "fan-out"];
const providers = new Map([[stubProvider.id, stubProvider]]);

export interface Row {
  topology: Topology;
  nodes: number;
  weft: Measurement & { usPerNode: number };
  langgraph: (Measurement & { usPerNode: number }) | { error: string };
  ratio: number | null;
}

async function weftRun(topology: Topology, size: number): Promise<Measurement> {
  const prepared = preparedRun(buildTopology(topology, size), { registry: builtInRegistry, concurrency: Infinity });
  let run = 0;
  return measure(async () => {
    const outcome = await runWorkflow({
      runId: `bench-${(run += 1)}`,
      prepared,
      registry: builtInRegistry,
      providers,
      onEvent: () => undefined,
    });
    if (outcome.status !== "COMPLETED") throw new Error(`weft run ${outcome.status}: ${outcome.error?.message}`);
  }, planFor(size));
}

/** At 10,000 nodes one LangGraph.js run takes minutes here, so it is timed once, without warm-up. */
const LANGGRAPH_SINGLE_RUN_FROM = 10_000;

async function langGraphRun(topology: Topology, size: number): Promise<Measurement> {
  const graph = buildLangGraph(topology, size);
  const plan = size >= LANGGRAPH_SINGLE_RUN_FROM ? { warmup: 0, iterations: 1, budgetMs: 0 } : planFor(size);
  return measure(async () => {
    const state = await graph.invoke({}, { recursionLimit: size * 2 + 10 });
    if (state.last !== "stub output") throw new Error("langgraph run did not reach the output node");
  }, plan);
}

const perNode = (measurement: Measurement, size: number) => ({
  ...measurement,
  usPerNode: Math.round(((measurement.medianMs * 1000) / size) * 100) / 100,
});

/** Engine overhead per node, Weft against LangGraph.js, same topologies, same stub, same process. */
export async function run(): Promise<void> {
  const machine = machineInfo();
  console.log(`\nEngine overhead per node (zero-latency stub) — ${machineLine(machine)}`);
  const rows: Row[] = [];
  for (const topology of TOPOLOGIES) {
    for (const size of SIZES) {
      const weft = perNode(await weftRun(topology, size), size);
      let langgraph: Row["langgraph"];
      try {
        langgraph = perNode(await langGraphRun(topology, size), size);
      } catch (error) {
        langgraph = { error: error instanceof Error ? error.message : String(error) };
      }
      const ratio = "usPerNode" in langgraph ? Number((weft.usPerNode / langgraph.usPerNode).toPrecision(2)) : null;
      rows.push({ topology, nodes: size, weft, langgraph, ratio });
      const lg = "usPerNode" in langgraph ? `${langgraph.usPerNode} µs/node` : `failed: ${langgraph.error}`;
      console.log(`  ${topology.padEnd(8)} ${String(size).padStart(6)} nodes  weft ${weft.usPerNode} µs/node  langgraph ${lg}  ratio ${ratio ?? "n/a"}`);
    }
  }
  writeResult("engine-overhead", { machine, stub: "zero-latency, fixed reply", rows });
  writeDocSection("engine-overhead", renderSection(`${machineLine(machine)} · load average ${machine.loadAverage}`, rows));
}

export function renderSection(machine: string, rows: Row[]): string {
  const ratios = rows.map((row) => row.ratio).filter((ratio): ratio is number => ratio !== null);
  const weft = rows.map((row) => row.weft.usPerNode);
  const summary =
    `Worst ratio ${Math.max(...ratios)} (goal ≤ 0.1${Math.max(...ratios) <= 0.1 ? ", met" : ", NOT met"}). ` +
    `Weft stays between ${Math.min(...weft)} and ${Math.max(...weft)} µs/node from 10 to 10,000 nodes; ` +
    "LangGraph.js's cost per node grows with the graph.";
  const lines = rows.map((row) => {
    const lg = "usPerNode" in row.langgraph ? `${row.langgraph.usPerNode}` : `— (${row.langgraph.error})`;
    const runs = "iterations" in row.langgraph ? `${row.weft.iterations} / ${row.langgraph.iterations}` : `${row.weft.iterations} / —`;
    return `| ${row.topology} | ${row.nodes.toLocaleString("en")} | ${row.weft.usPerNode} | ${lg} | ${row.ratio ?? "—"} | ${runs} |`;
  });
  return [
    "## Engine overhead per node",
    "",
    `Measured ${machine}. Command: \`pnpm bench\` (results in \`bench/results/engine-overhead.json\`).`,
    "",
    "Both engines run the same topology against the same zero-latency stub model in the same process, and",
    "every node does the same work (join inputs, render the prompt, call the stub, parse the reply with the",
    "ResultParser; text nodes parse their content). Weft: `runWorkflow` with no concurrency cap, events to a",
    "no-op handler, planning included in the time. LangGraph.js 1.2.0: a compiled `StateGraph` (compile not",
    "timed) with one graph node per Weft node, `invoke` with `recursionLimit` raised to fit; chains pass a",
    "`last` channel along, fan-outs append to a reducer channel joined by an edge from all generators.",
    "Figures are the median of the timed runs after warm-up and a full garbage collection; µs/node = median",
    "run time ÷ node count.",
    "At 10,000 nodes a LangGraph.js run takes minutes here, so it is timed once, without warm-up.",
    "",
    "chain = input → generation → validation × (n − 3) → output; fan-out = input → generation × (n − 3) → ensemble → output.",
    "",
    "| topology | nodes | Weft µs/node | LangGraph.js µs/node | ratio (goal ≤ 0.1) | timed runs (Weft / LangGraph) |",
    "|---|---|---|---|---|---|",
    ...lines,
    "",
    summary,
  ].join("\n");
}
