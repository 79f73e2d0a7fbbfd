import type { AgentScript } from "./agent-script.js";
import type { Measurement } from "./measure.js";

export interface Side extends Measurement {
  /** Median run ÷ model turns (steps + the answer). */
  usPerTurn: number;
  p95UsPerTurn: number;
  cpuUsPerTurn: number;
}

export type Measured = Side | { error: string };

export interface AgentRow extends AgentScript {
  turns: number;
  weft: Side;
  /** createReactAgent's default graph (v1) and its Send-per-call graph (v2). */
  langgraph: { v1: Measured; v2: Measured };
  /** Weft ÷ the faster LangGraph.js graph (wall), and ÷ the one that used less CPU. */
  ratio: number | null;
  cpuRatio: number | null;
}

const DESCRIPTION = [
  "Both agents run in one process against the same scripted, zero-latency model and the same trivial tool",
  "(`bench/src/agent-script.ts`): for `steps` turns the model asks for `width` calls of `lookup` at once",
  "(each checked against the same JSON Schema, answered at once), then it gives the final answer. Weft:",
  "`runWorkflow` on `in → agent → out`, the agent's tool an in-memory MCP server (no I/O), every call its own",
  "invocation with its events, events to a no-op handler. LangGraph.js 1.2.0: the prebuilt `createReactAgent`",
  "(`agent` and `tools` nodes) with the same model as a LangChain chat model and `lookup` as a LangChain",
  "`tool`, in both of its graphs: v1 (the default; one ToolNode task runs a turn's calls in parallel) and v2",
  "(each call a task of its own, sent with Send); built once, `invoke` timed, no checkpointer. The ratio is",
  "Weft against the faster of the two. A step is one model turn (steps + the answer); µs/step = run time ÷",
  "turns, median and p95 of the timed runs after warm-up and a full garbage collection; CPU = this process's",
  "user + system time of a run (median). The machine is shared with other engineers' builds and tests: the",
  "load above is other work, and wall figures move with it. A long run is more often taken off the CPU than",
  "a short one, which inflates the wall figures of LangGraph.js (whose runs take milliseconds) more than",
  "Weft's (fractions of one); the CPU columns leave that time out and are the fairer comparison on a loaded",
  "machine.",
];

const cell = (side: Measured, pick: (side: Side) => number) => ("usPerTurn" in side ? `${pick(side)}` : `— (${side.error})`);
const wallCell = (side: Measured) => `${cell(side, (s) => s.usPerTurn)} / ${cell(side, (s) => s.p95UsPerTurn)}`;
const runsCell = (side: Measured) => ("iterations" in side ? `${side.iterations}` : "—");

function tableLine(row: AgentRow): string {
  const { weft, langgraph } = row;
  const cpu = [weft.cpuUsPerTurn, cell(langgraph.v1, (s) => s.cpuUsPerTurn), cell(langgraph.v2, (s) => s.cpuUsPerTurn)].join(" / ");
  const runs = [weft.iterations, runsCell(langgraph.v1), runsCell(langgraph.v2)].join(" / ");
  return `| ${row.steps} × ${row.width} | ${wallCell(weft)} | ${wallCell(langgraph.v1)} | ${wallCell(langgraph.v2)} | ${row.ratio ?? "—"} | ${cpu} | ${row.cpuRatio ?? "—"} | ${runs} |`;
}

/** Per added step, from the 5- and 20-step runs of one width: each run's fixed costs cancel out. */
function marginalUsPerStep(rows: AgentRow[], width: number, pick: (row: AgentRow) => Measured): number | null {
  const [short, long] = [5, 20].map((steps) => rows.find((row) => row.width === width && row.steps === steps));
  const [a, b] = [short && pick(short), long && pick(long)];
  if (!a || !b || !("medianMs" in a) || !("medianMs" in b)) return null;
  return Math.round(((b.medianMs - a.medianMs) * 1000 * 100) / 15) / 100;
}

function marginalLine(rows: AgentRow[], width: number): string {
  const weft = marginalUsPerStep(rows, width, (row) => row.weft);
  const v1 = marginalUsPerStep(rows, width, (row) => row.langgraph.v1);
  const v2 = marginalUsPerStep(rows, width, (row) => row.langgraph.v2);
  const faster = [v1, v2].filter((value): value is number => value !== null);
  const ratio = weft !== null && faster.length > 0 ? Number((weft / Math.min(...faster)).toPrecision(2)) : "—";
  return `| ${width} | ${weft ?? "—"} | ${v1 ?? "—"} | ${v2 ?? "—"} | ${ratio} |`;
}

function verdict(rows: AgentRow[]): string {
  const worstOf = (ratios: Array<number | null>) => Math.max(...ratios.filter((ratio): ratio is number => ratio !== null));
  const [wall, cpu] = [worstOf(rows.map((row) => row.ratio)), worstOf(rows.map((row) => row.cpuRatio))];
  if (!Number.isFinite(wall)) return "LangGraph.js could not be measured.";
  return `Worst ratio: wall ${wall}, CPU ${cpu} (goal ≤ 0.1${Math.max(wall, cpu) <= 0.1 ? ", met by both" : ", NOT met"}).`;
}

export function renderAgentSection(machine: string, rows: AgentRow[]): string {
  return [
    "## Agent overhead per step",
    "",
    `Measured ${machine}. Command: \`pnpm bench -- agent-overhead\` (results in \`bench/results/agent-overhead.json\`).`,
    "",
    ...DESCRIPTION,
    "",
    "| steps × parallel calls | Weft µs/step p50 / p95 | LangGraph.js v1 p50 / p95 | LangGraph.js v2 p50 / p95 | ratio (goal ≤ 0.1) | CPU µs/step Weft / v1 / v2 | CPU ratio | timed runs (Weft / v1 / v2) |",
    "|---|---|---|---|---|---|---|---|",
    ...rows.map(tableLine),
    "",
    "Per added step (median run at 20 steps − at 5 steps, ÷ 15), which leaves out each run's fixed costs:",
    "",
    "| parallel calls | Weft µs/step | LangGraph.js v1 µs/step | LangGraph.js v2 µs/step | ratio |",
    "|---|---|---|---|---|",
    ...[1, 4].map((width) => marginalLine(rows, width)),
    "",
    verdict(rows),
  ].join("\n");
}
