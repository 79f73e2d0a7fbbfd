import { builtInRegistry, runWorkflow, type LlmProvider, type Workflow } from "@weft/engine";
import { buildLangGraphPipeline } from "./langgraph-pipelines.js";
import { machineInfo, machineLine } from "./machine-info.js";
import { preparedRun } from "./prepared-run.js";
import { measure, planFor, type Measurement } from "./measure.js";
import { buildPipeline, pipelineStub, stubReply, workUnits, type Pipeline } from "./pipeline-topologies.js";
import { writeDocSection, writeResult } from "./results-writer.js";
import { VirtualClock } from "./virtual-clock.js";

/**
 * Engine overhead of SPEC-V2 pipelines, Weft against LangGraph.js 1.2 in one process, same stub:
 * router chains (switch + taken branch + join per stage), a three-iteration retry loop with a body of
 * B steps, and a map over N items (LangGraph: Send). Per unit of work (a router, model or join step,
 * counted the same for both engines). Plus the map's makespan in virtual time against the ideal
 * ceil(items ÷ concurrency) × latency.
 */

const CASES: Array<{ pipeline: Pipeline; sizes: number[] }> = [
  { pipeline: "router", sizes: [3, 30, 300] },
  { pipeline: "loop", sizes: [1, 10, 100] },
  { pipeline: "map", sizes: [10, 100, 1_000] },
];
const providers = new Map([[pipelineStub.id, pipelineStub]]);

export interface PipelineRow {
  pipeline: Pipeline;
  size: number;
  units: number;
  weft: Measurement & { usPerUnit: number };
  langgraph: (Measurement & { usPerUnit: number }) | { error: string };
  ratio: number | null;
}

async function weftRun(workflow: Workflow, units: number): Promise<Measurement> {
  let run = 0;
  const prepared = preparedRun(workflow, { registry: builtInRegistry, concurrency: Infinity });
  return measure(async () => {
    const outcome = await runWorkflow({ runId: `bench-${(run += 1)}`, prepared, registry: builtInRegistry, providers, onEvent: () => undefined });
    if (outcome.status !== "COMPLETED") throw new Error(`weft run ${outcome.status}: ${outcome.error?.message}`);
  }, planFor(units));
}

async function langGraphRun(pipeline: Pipeline, size: number, units: number): Promise<Measurement> {
  const graph = buildLangGraphPipeline(pipeline, size);
  return measure(async () => {
    const state = await graph.invoke({}, { recursionLimit: units * 4 + 20 });
    if (pipeline === "map" ? state.results.length !== size : state.last === undefined) throw new Error("langgraph run did not finish its work");
  }, planFor(units));
}

const perUnit = (measurement: Measurement, units: number) => ({ ...measurement, usPerUnit: Math.round(((measurement.medianMs * 1000) / units) * 100) / 100 });

/** A map of 1,000 items, 100 ms each, at concurrency 16, in virtual time. */
async function mapMakespan(): Promise<{ items: number; concurrency: number; latencyMs: number; makespanMs: number; idealMs: number; ratio: number }> {
  const items = 1_000;
  const concurrency = 16;
  const latencyMs = 100;
  const clock = new VirtualClock();
  const slow: LlmProvider = {
    ...pipelineStub,
    complete: async (request, signal) => {
      await clock.sleep(latencyMs, signal);
      return { text: stubReply(request), model: "stub", usage: null };
    },
  };
  const workflow = buildPipeline("map", items);
  const each = workflow.nodes.find((node) => node.id === "each")!;
  each.config = { ...each.config, concurrency };
  const { value, elapsedMs } = await clock.drive(
    runWorkflow({ runId: "makespan", prepared: preparedRun(workflow, { registry: builtInRegistry, concurrency: Infinity }), registry: builtInRegistry, providers: new Map([["stub", slow]]), onEvent: () => undefined }),
  );
  if (value.status !== "COMPLETED") throw new Error(`map run ${value.status}`);
  const idealMs = Math.ceil(items / concurrency) * latencyMs;
  return { items, concurrency, latencyMs, makespanMs: elapsedMs, idealMs, ratio: Math.round((elapsedMs / idealMs) * 1000) / 1000 };
}

export async function run(): Promise<void> {
  const machine = machineInfo();
  console.log(`\nPipeline overhead per unit of work (zero-latency stub) — ${machineLine(machine)}`);
  const rows: PipelineRow[] = [];
  for (const { pipeline, sizes } of CASES) {
    for (const size of sizes) {
      const units = workUnits(pipeline, size);
      const weft = perUnit(await weftRun(buildPipeline(pipeline, size), units), units);
      let langgraph: PipelineRow["langgraph"];
      try {
        langgraph = perUnit(await langGraphRun(pipeline, size, units), units);
      } catch (error) {
        langgraph = { error: error instanceof Error ? error.message : String(error) };
      }
      const ratio = "usPerUnit" in langgraph ? Number((weft.usPerUnit / langgraph.usPerUnit).toPrecision(2)) : null;
      rows.push({ pipeline, size, units, weft, langgraph, ratio });
      const lg = "usPerUnit" in langgraph ? `${langgraph.usPerUnit} µs` : `failed: ${langgraph.error}`;
      console.log(`  ${pipeline.padEnd(6)} ${String(size).padStart(5)}  weft ${weft.usPerUnit} µs  langgraph ${lg}  ratio ${ratio ?? "n/a"}`);
    }
  }
  const makespan = await mapMakespan();
  console.log(`  map makespan ${makespan.makespanMs} ms for ideal ${makespan.idealMs} ms: ratio ${makespan.ratio} (goal ≤ 1.05)`);
  writeResult("pipeline-overhead", { machine, stub: "zero-latency, fixed reply; grader: retry, retry, pass", rows, makespan });
  writeDocSection("pipeline-overhead", renderSection(`${machineLine(machine)} · load average ${machine.loadAverage}`, rows, makespan));
}

function renderSection(machine: string, rows: PipelineRow[], makespan: Awaited<ReturnType<typeof mapMakespan>>): string {
  const ratios = rows.map((row) => row.ratio).filter((ratio): ratio is number => ratio !== null);
  const worst = Math.max(...ratios);
  const lines = rows.map((row) => {
    const lg = "usPerUnit" in row.langgraph ? `${row.langgraph.usPerUnit}` : `— (${row.langgraph.error})`;
    const runs = "iterations" in row.langgraph ? `${row.weft.iterations} / ${row.langgraph.iterations}` : `${row.weft.iterations} / —`;
    return `| ${row.pipeline} | ${row.size.toLocaleString("en")} | ${row.units.toLocaleString("en")} | ${row.weft.usPerUnit} | ${lg} | ${row.ratio ?? "—"} | ${runs} |`;
  });
  return [
    "## Pipeline overhead per unit of work (pipeline-overhead)",
    "",
    `Measured ${machine}. Command: \`pnpm bench -- pipeline-overhead\` (results in \`bench/results/pipeline-overhead.json\`).`,
    "",
    "Both engines run the same SPEC-V2 pipelines in one process against the same zero-latency stub and do the same",
    "work per step: model steps render their template and call the stub; the grader's JSON reply is parsed and",
    "checked against its JSON Schema; routers decide (Weft: a compiled CEL condition; LangGraph.js: a JavaScript",
    "path function). Weft: `runWorkflow` with `builtInRegistry`, no concurrency cap, events to a no-op handler,",
    "planning included. LangGraph.js 1.2.0: a compiled `StateGraph` (compile not timed), conditional edges for",
    "routers and the loop, `Send` for the map. A unit of work is a router, model or join step, counted alike for",
    "both (router: 3 per stage; loop: (B + 1) × 3 iterations; map: 1 per item — Weft's input and output body nodes",
    "are not counted). Median of the timed runs after warm-up and a full garbage collection.",
    "",
    "| pipeline | size (stages / body steps / items) | units | Weft µs/unit | LangGraph.js µs/unit | ratio (goal ≤ 0.1) | timed runs (Weft / LangGraph) |",
    "|---|---|---|---|---|---|---|",
    ...lines,
    "",
    `Worst ratio ${worst} (goal ≤ 0.1${worst <= 0.1 ? ", met" : ", NOT met"}).`,
    "",
    `Map makespan in virtual time (\`VirtualClock\`): ${makespan.items} items of ${makespan.latencyMs} ms at concurrency ${makespan.concurrency}:`,
    `${makespan.makespanMs} ms for an ideal ceil(items ÷ concurrency) × latency = ${makespan.idealMs} ms, ratio ${makespan.ratio} (goal ≤ 1.05${makespan.ratio <= 1.05 ? ", met" : ", NOT met"}).`,
  ].join("\n");
}
