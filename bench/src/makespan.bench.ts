import { builtInRegistry, OfflineLlmProvider, runWorkflow, seededRandom, type Workflow, type WorkflowEdge, type WorkflowNode } from "@weft/engine";
import { machineInfo, machineLine } from "./machine-info.js";
import { preparedRun } from "./prepared-run.js";
import { writeDocSection, writeResult } from "./results-writer.js";
import { runRoundBased } from "./round-based-scheduler.js";
import { VirtualClock } from "./virtual-clock.js";
import { PROMPTS } from "./topologies.js";

const GRAPHS = 8;
const REPEATS = 5;
const providers = new Map([["offline", new OfflineLlmProvider()]]);

/**
 * Parallel branches of random length joined by an ensemble, every model node an offline echo with a
 * fixed random latency of 5–50 ms. The latency is in `params.delayMs`, which the offline models honour.
 *   in → generation → validation × k → ┐
 *   in → generation → validation × k → ┼→ ensemble → output
 */
function branchyWorkflow(seed: number): Workflow {
  const random = seededRandom(seed);
  const delay = () => 5 + Math.floor(random() * 46);
  const nodes: WorkflowNode[] = [{ id: "in", type: "input", content: `graph ${seed}` }];
  const edges: WorkflowEdge[] = [];
  const connect = (source: string, target: string) => edges.push({ id: `e${edges.length}`, source, target });
  const model = (id: string, type: string) =>
    nodes.push({ id, type, provider: "offline", model: "echo", params: { delayMs: delay() } });
  const branches = 2 + Math.floor(random() * 7);
  model("ens", "ensemble");
  for (let b = 0; b < branches; b += 1) {
    let previous = `b${b}g`;
    model(previous, "generation");
    connect("in", previous);
    const length = Math.floor(random() * 6);
    for (let k = 0; k < length; k += 1) {
      model(`b${b}v${k}`, "validation");
      connect(previous, `b${b}v${k}`);
      previous = `b${b}v${k}`;
    }
    connect(previous, "ens");
  }
  nodes.push({ id: "out", type: "output", content: "" });
  connect("ens", "out");
  return { name: `branchy-${seed}`, nodes, edges, prompts: PROMPTS, outputFormat: "plain text" };
}

/** Longest path by node latency (text nodes take no time): the best any scheduler can do. */
function criticalPathMs(workflow: Workflow): number {
  const latency = new Map(workflow.nodes.map((node) => [node.id, Number(node.params?.delayMs ?? 0)]));
  const finish = new Map<string, number>();
  const pre = new Map(workflow.nodes.map((node) => [node.id, [] as string[]]));
  for (const edge of workflow.edges) pre.get(edge.target)!.push(edge.source);
  const visit = (id: string): number => {
    const known = finish.get(id);
    if (known !== undefined) return known;
    const start = Math.max(0, ...pre.get(id)!.map(visit));
    const done = start + latency.get(id)!;
    finish.set(id, done);
    return done;
  };
  return Math.max(...workflow.nodes.map((node) => visit(node.id)));
}

/** Median and best of REPEATS timed runs after a warm-up run. */
async function timed(run: () => Promise<unknown>): Promise<{ median: number; best: number }> {
  await run();
  const samples: number[] = [];
  for (let i = 0; i < REPEATS; i += 1) {
    const t0 = performance.now();
    await run();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(REPEATS / 2)]!, best: samples[0]! };
}

/** Makespans in virtual time: the offline models sleep on a VirtualClock, so only the schedule counts. */
async function virtualMakespans(workflow: Workflow): Promise<{ dataflowMs: number; roundsMs: number }> {
  const clock = new VirtualClock();
  const simulated = new Map([["offline", new OfflineLlmProvider({ sleep: clock.sleep })]]);
  const dataflow = await clock.drive(
    runWorkflow({
      runId: "virtual",
      prepared: preparedRun(workflow, { registry: builtInRegistry, concurrency: Infinity }),
      registry: builtInRegistry,
      providers: simulated,
      onEvent: () => undefined,
    }),
  );
  const rounds = await clock.drive(runRoundBased(workflow, simulated));
  return { dataflowMs: dataflow.elapsedMs, roundsMs: rounds.elapsedMs };
}

interface Row {
  graph: string;
  nodes: number;
  criticalPathMs: number;
  dataflowMs: number;
  roundsMs: number;
  dataflowRatio: number;
  dataflowBestRatio: number;
  roundsRatio: number;
  /** Same graph, latencies on a virtual clock: the schedule alone, free of machine noise. */
  virtualDataflowRatio: number;
  virtualRoundsRatio: number;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** Makespan ÷ critical path for Weft's dataflow scheduler and for the seed's rounds, same graphs. */
export async function run(): Promise<void> {
  const machine = machineInfo();
  console.log(`\nMakespan ÷ critical path (latencies 5–50 ms) — ${machineLine(machine)}`);
  const rows: Row[] = [];
  for (let seed = 1; seed <= GRAPHS; seed += 1) {
    const workflow = branchyWorkflow(seed);
    const critical = criticalPathMs(workflow);
    const prepared = preparedRun(workflow, { registry: builtInRegistry, concurrency: Infinity });
    const dataflow = await timed(async () => {
      const outcome = await runWorkflow({
        runId: `makespan-${seed}`,
        prepared,
        registry: builtInRegistry,
        providers,
        onEvent: () => undefined,
      });
      if (outcome.status !== "COMPLETED") throw new Error(`run ${outcome.status}`);
    });
    const rounds = await timed(() => runRoundBased(workflow, providers));
    const virtual = await virtualMakespans(workflow);
    const row = {
      graph: workflow.name,
      nodes: workflow.nodes.length,
      criticalPathMs: critical,
      dataflowMs: Math.round(dataflow.median * 10) / 10,
      roundsMs: Math.round(rounds.median * 10) / 10,
      dataflowRatio: round3(dataflow.median / critical),
      dataflowBestRatio: round3(dataflow.best / critical),
      roundsRatio: round3(rounds.median / critical),
      virtualDataflowRatio: round3(virtual.dataflowMs / critical),
      virtualRoundsRatio: round3(virtual.roundsMs / critical),
    };
    rows.push(row);
    console.log(
      `  ${row.graph.padEnd(11)} ${String(row.nodes).padStart(3)} nodes  critical ${critical} ms  dataflow ${row.dataflowRatio} (virtual ${row.virtualDataflowRatio})  rounds ${row.roundsRatio} (virtual ${row.virtualRoundsRatio})`,
    );
  }
  const worst = Math.max(...rows.map((row) => row.dataflowRatio));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const summary = {
    dataflowMedian: median(rows.map((row) => row.dataflowRatio)),
    dataflowWorst: worst,
    roundsMedian: median(rows.map((row) => row.roundsRatio)),
    roundsWorst: Math.max(...rows.map((row) => row.roundsRatio)),
    virtualDataflowWorst: Math.max(...rows.map((row) => row.virtualDataflowRatio)),
    virtualRoundsMedian: median(rows.map((row) => row.virtualRoundsRatio)),
    virtualRoundsWorst: Math.max(...rows.map((row) => row.virtualRoundsRatio)),
  };
  console.log(`  dataflow median ${summary.dataflowMedian}, worst ${summary.dataflowWorst}; rounds median ${summary.roundsMedian}, worst ${summary.roundsWorst}`);
  writeResult("makespan", { machine, latencyMs: "5–50 per model node (offline echo, params.delayMs)", repeats: REPEATS, summary, rows });
  writeDocSection("makespan", renderSection(`${machineLine(machine)} · load average ${machine.loadAverage}`, rows, summary));
}

function renderSection(machine: string, rows: Row[], summary: Record<string, number>): string {
  return [
    "## Makespan ÷ critical path",
    "",
    `Measured ${machine}. Command: \`pnpm bench -- makespan\` (results in \`bench/results/makespan.json\`).`,
    "",
    "Seeded graphs of 2–8 parallel branches (generation → 0–5 validations) joined by an ensemble; each model",
    "node is the offline `echo` model with a fixed random latency of 5–50 ms (`params.delayMs`). The critical",
    "path is the longest chain of latencies, the lower bound for any scheduler. Times are the median of",
    `${REPEATS} runs after one warm-up run. "rounds" is the seed's algorithm (run the ready nodes, wait for all, repeat) with the same`,
    "node executors. Timer lateness (setTimeout fires ≥ 1 ms late per hop) is counted against both;",
    "“best” is the fastest run, the one least disturbed by other load on the machine. The “virtual” columns",
    "run the same graphs with the offline models sleeping on a simulated clock (`bench/src/virtual-clock.ts`):",
    "they measure the schedule alone, exactly, whatever the load.",
    "",
    "| graph | nodes | critical path (ms) | dataflow (ms) | dataflow ÷ critical, median (best) — goal ≤ 1.05 | rounds (ms) | rounds ÷ critical | virtual: dataflow ÷ critical | virtual: rounds ÷ critical |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (row) =>
        `| ${row.graph} | ${row.nodes} | ${row.criticalPathMs} | ${row.dataflowMs} | ${row.dataflowRatio} (${row.dataflowBestRatio}) | ${row.roundsMs} | ${row.roundsRatio} | ${row.virtualDataflowRatio} | ${row.virtualRoundsRatio} |`,
    ),
    "",
    `Wall clock — dataflow: median ${summary.dataflowMedian}, worst ${summary.dataflowWorst}; rounds: median ${summary.roundsMedian}, worst ${summary.roundsWorst}.`,
    `Virtual time — dataflow: worst ${summary.virtualDataflowWorst}; rounds: median ${summary.virtualRoundsMedian}, worst ${summary.virtualRoundsWorst}.`,
  ].join("\n");
}
