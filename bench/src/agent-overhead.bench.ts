import { builtInRegistry, runWorkflow, validateWorkflow, type Workflow } from "@weft/engine";
import { renderAgentSection, type AgentRow, type Measured, type Side } from "./agent-overhead-section.js";
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

async function measureSide(run: () => Promise<void>, turns: number): Promise<Measured> {
  try {
    return perTurn(await measure(run, PLAN), turns);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

async function measureRow(script: AgentScript): Promise<AgentRow> {
  const turns = script.steps + 1;
  const weft = perTurn(await measure(weftAgentRun(script), PLAN), turns);
  const langgraph = { v1: await measureSide(reactAgentRun(script, "v1"), turns), v2: await measureSide(reactAgentRun(script, "v2"), turns) };
  const measured = [langgraph.v1, langgraph.v2].filter((side): side is Side => "usPerTurn" in side);
  const ratioTo = (pick: (side: Side) => number) =>
    measured.length === 0 ? null : Number((pick(weft) / Math.min(...measured.map(pick))).toPrecision(2));
  return { ...script, turns, weft, langgraph, ratio: ratioTo((side) => side.usPerTurn), cpuRatio: ratioTo((side) => side.cpuUsPerTurn) };
}

const printed = (side: Measured) => ("usPerTurn" in side ? `${side.usPerTurn} µs/step (cpu ${side.cpuUsPerTurn})` : `failed: ${side.error}`);

export async function run(): Promise<AgentRow[]> {
  const machine = machineInfo();
  console.log(`\nAgent overhead per step (scripted zero-latency model) — ${machineLine(machine)}`);
  const rows: AgentRow[] = [];
  for (const script of SCRIPTS) {
    const row = await measureRow(script);
    rows.push(row);
    console.log(
      `  ${script.steps} steps × ${script.width} calls  weft ${printed(row.weft)}  langgraph v1 ${printed(row.langgraph.v1)}, v2 ${printed(row.langgraph.v2)}  ratio ${row.ratio ?? "n/a"} (cpu ${row.cpuRatio ?? "n/a"})`,
    );
  }
  const after = machineInfo();
  writeResult("agent-overhead", { machine, loadAverageAfter: after.loadAverage, model: "scripted, zero latency", rows });
  writeDocSection("agent-overhead", renderAgentSection(`${machineLine(machine)} · load average ${machine.loadAverage} before, ${after.loadAverage} after`, rows));
  return rows;
}
