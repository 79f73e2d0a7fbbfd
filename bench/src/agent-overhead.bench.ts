import { builtInRegistry, runWorkflow, validateWorkflow, type Workflow } from "@weft/engine";
import { FINAL_ANSWER, InMemoryLookupServer, scriptedProvider, type AgentScript } from "./agent-script.js";
import { reactAgentRun } from "./langgraph-react-agent.js";
import { machineInfo, machineLine } from "./machine-info.js";
import { measure, type Measurement, type MeasurePlan } from "./measure.js";
import { preparedRun } from "./prepared-run.js";
import { writeDocSection, writeResult } from "./results-writer.js";

/**
 * Agent overhead per step (issue 29: goal ≤ 0.1× LangGraph.js's), Weft's `agent` node against
 * LangGraph.js's prebuilt ReAct agent, in one process, on the same scripted zero-latency model and the
 * same trivial tool (agent-script.ts): `steps` turns of `width` parallel `lookup` calls, then the answer.
 *
 *   in ──▶ agent (tools: MCP server "bench", in memory) ──▶ out
 */
const SCRIPTS: AgentScript[] = [
  { steps: 5, width: 1 },
  { steps: 5, width: 4 },
  { steps: 20, width: 1 },
  { steps: 20, width: 4 },
];
const PLAN: MeasurePlan = { warmup: 50, iterations: 300, budgetMs: 20_000 };

interface Side extends Measurement {
  /** Median run ÷ model turns (steps + the answer). */
  usPerTurn: number;
  p95UsPerTurn: number;
  cpuUsPerTurn: number;
}

export interface AgentRow extends AgentScript {
  turns: number;
  weft: Side;
  langgraph: Side | { error: string };
  ratio: number | null;
  cpuRatio: number | null;
}

function agentWorkflow(script: AgentScript): Workflow {
  const agent = {
    id: "agent",
    type: "agent",
    provider: "bench-agent",
    model: "scripted-agent",
    prompt: "Look up every key you are given: {input}",
    config: { tools: [{ type: "mcp", server: "bench" }], maxSteps: script.steps + 1 },
  };
  return {
    name: `agent-${script.steps}x${script.width}`,
    nodes: [{ id: "in", type: "input", content: "the keys" }, agent, { id: "out", type: "output", content: "" }],
    edges: [
      { id: "e1", source: "in", target: "agent" },
      { id: "e2", source: "agent", target: "out" },
    ],
    prompts: {},
    outputFormat: "plain text",
  };
}

/** One Weft run: the engine's runner with the agent node, the scripted provider and the in-memory MCP server. */
function weftAgentRun(script: AgentScript): () => Promise<void> {
  const workflow = agentWorkflow(script);
  const violations = validateWorkflow(workflow, { registry: builtInRegistry });
  if (violations.length > 0) throw new Error(`benchmark agent refused: ${violations.map((violation) => violation.message).join("; ")}`);
  const prepared = preparedRun(workflow, { registry: builtInRegistry, concurrency: Infinity });
  const provider = scriptedProvider(script);
  const providers = new Map([[provider.id, provider]]);
  let run = 0;
  return async () => {
    const mcp = new InMemoryLookupServer();
    const outcome = await runWorkflow({ runId: `agent-${(run += 1)}`, prepared, registry: builtInRegistry, providers, tools: { mcp }, onEvent: () => undefined });
    if (outcome.status !== "COMPLETED") throw new Error(`weft run ${outcome.status}: ${outcome.error?.message}`);
    if (outcome.result !== FINAL_ANSWER || mcp.calls !== script.steps * script.width) {
      throw new Error(`the Weft agent ended with "${String(outcome.result)}" after ${mcp.calls} tool calls`);
    }
  };
}

const round = (value: number) => Math.round(value * 100) / 100;

function perTurn(measurement: Measurement, turns: number): Side {
  const us = (ms: number) => round((ms * 1000) / turns);
  return { ...measurement, usPerTurn: us(measurement.medianMs), p95UsPerTurn: us(measurement.p95Ms), cpuUsPerTurn: us(measurement.cpuMedianMs) };
}

async function measureRow(script: AgentScript): Promise<AgentRow> {
  const turns = script.steps + 1;
  const weft = perTurn(await measure(weftAgentRun(script), PLAN), turns);
  let langgraph: AgentRow["langgraph"];
  try {
    langgraph = perTurn(await measure(reactAgentRun(script), PLAN), turns);
  } catch (error) {
    langgraph = { error: error instanceof Error ? error.message : String(error) };
  }
  const ratioOf = (a: number, b: number) => Number((a / b).toPrecision(2));
  const measured = "usPerTurn" in langgraph ? langgraph : null;
  return {
    ...script,
    turns,
    weft,
    langgraph,
    ratio: measured ? ratioOf(weft.usPerTurn, measured.usPerTurn) : null,
    cpuRatio: measured ? ratioOf(weft.cpuUsPerTurn, measured.cpuUsPerTurn) : null,
  };
}

export async function run(): Promise<AgentRow[]> {
  const machine = machineInfo();
  console.log(`\nAgent overhead per step (scripted zero-latency model) — ${machineLine(machine)}`);
  const rows: AgentRow[] = [];
  for (const script of SCRIPTS) {
    const row = await measureRow(script);
    rows.push(row);
    const lg = "usPerTurn" in row.langgraph ? `${row.langgraph.usPerTurn} µs/step (cpu ${row.langgraph.cpuUsPerTurn})` : `failed: ${row.langgraph.error}`;
    console.log(`  ${script.steps} steps × ${script.width} calls  weft ${row.weft.usPerTurn} µs/step (cpu ${row.weft.cpuUsPerTurn})  langgraph ${lg}  ratio ${row.ratio ?? "n/a"}`);
  }
  const after = machineInfo();
  writeResult("agent-overhead", { machine, loadAverageAfter: after.loadAverage, model: "scripted, zero latency", rows });
  writeDocSection("agent-overhead", renderAgentSection(`${machineLine(machine)} · load average ${machine.loadAverage} before, ${after.loadAverage} after`, rows));
  return rows;
}

/** Per added step, from the 5- and 20-step runs of one width: the run's fixed costs cancel out. */
function marginalUsPerStep(rows: AgentRow[], width: number, side: "weft" | "langgraph"): number | null {
  const [short, long] = [5, 20].map((steps) => rows.find((row) => row.width === width && row.steps === steps)?.[side]);
  if (!short || !long || !("medianMs" in short) || !("medianMs" in long)) return null;
  return round(((long.medianMs - short.medianMs) * 1000) / 15);
}

export function renderAgentSection(machine: string, rows: AgentRow[]): string {
  const cell = (side: Side | { error: string }, pick: (side: Side) => number) => ("usPerTurn" in side ? `${pick(side)}` : `— (${side.error})`);
  const lines = rows.map(
    (row) =>
      `| ${row.steps} × ${row.width} | ${row.weft.usPerTurn} / ${row.weft.p95UsPerTurn} | ${cell(row.langgraph, (side) => side.usPerTurn)} / ${cell(row.langgraph, (side) => side.p95UsPerTurn)} | ${row.ratio ?? "—"} | ` +
      `${row.weft.cpuUsPerTurn} | ${cell(row.langgraph, (side) => side.cpuUsPerTurn)} | ${row.cpuRatio ?? "—"} | ${row.weft.iterations} / ${"iterations" in row.langgraph ? row.langgraph.iterations : "—"} |`,
  );
  const marginal = [1, 4].map((width) => {
    const weft = marginalUsPerStep(rows, width, "weft");
    const langgraph = marginalUsPerStep(rows, width, "langgraph");
    const ratio = weft !== null && langgraph !== null ? Number((weft / langgraph).toPrecision(2)) : "—";
    return `| ${width} | ${weft ?? "—"} | ${langgraph ?? "—"} | ${ratio} |`;
  });
  const worstOf = (ratios: Array<number | null>) => Math.max(...ratios.filter((ratio): ratio is number => ratio !== null));
  const [wall, cpu] = [worstOf(rows.map((row) => row.ratio)), worstOf(rows.map((row) => row.cpuRatio))];
  const verdict = Number.isFinite(wall)
    ? `Worst ratio: wall ${wall}, CPU ${cpu} (goal ≤ 0.1${Math.max(wall, cpu) <= 0.1 ? ", met by both" : ", NOT met"}).`
    : "LangGraph.js could not be measured.";
  return [
    "## Agent overhead per step",
    "",
    `Measured ${machine}. Command: \`pnpm bench -- agent-overhead\` (results in \`bench/results/agent-overhead.json\`).`,
    "",
    "Both agents run in one process against the same scripted, zero-latency model and the same trivial tool",
    "(`bench/src/agent-script.ts`): for `steps` turns the model asks for `width` calls of `lookup` at once",
    "(each checked against the same JSON Schema, answered at once), then it gives the final answer. Weft:",
    "`runWorkflow` on `in → agent → out`, the agent's tool an in-memory MCP server (no I/O), every call its own",
    "invocation with its events, events to a no-op handler. LangGraph.js 1.2.0: the prebuilt",
    "`createReactAgent` (its default v1 graph: `agent` and `tools` nodes, the ToolNode running a turn's calls",
    "in parallel), the same model as a LangChain chat model and `lookup` as a LangChain `tool`; built once,",
    "`invoke` timed. A step is one model turn (steps + the answer); µs/step = run time ÷ turns, median and",
    "p95 of the timed runs after warm-up and a full garbage collection; CPU = this process's user + system",
    "time of a run (median). The machine is shared with other engineers' builds and tests: the load above",
    "is other work, and wall figures move with it. A long run is more often taken off the CPU than a short",
    "one, which inflates the wall figures of LangGraph.js (whose runs take milliseconds) more than Weft's",
    "(fractions of one); the CPU columns leave that time out and are the fairer comparison on a loaded machine.",
    "",
    "| steps × parallel calls | Weft µs/step p50 / p95 | LangGraph.js µs/step p50 / p95 | ratio (goal ≤ 0.1) | Weft CPU µs/step | LangGraph.js CPU µs/step | CPU ratio | timed runs (Weft / LangGraph) |",
    "|---|---|---|---|---|---|---|---|",
    ...lines,
    "",
    "Per added step (median run at 20 steps − at 5 steps, ÷ 15), which leaves out each run's fixed costs:",
    "",
    "| parallel calls | Weft µs/step | LangGraph.js µs/step | ratio |",
    "|---|---|---|---|",
    ...marginal,
    "",
    verdict,
  ].join("\n");
}
