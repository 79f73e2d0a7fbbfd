import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import {
  builtInRegistry,
  checkAddEdge,
  parseWorkflowDocument,
  stringifyWorkflow,
  validateWorkflow,
  createNewWorkflow,
  type WorkflowEdge,
  type WorkflowGraph,
  type WorkflowNode,
} from "@weft/engine";
import { machineInfo, machineLine, type MachineInfo } from "./machine-info.js";
import { writeDocSection, writeResult } from "./results-writer.js";

/**
 * Whole-graph validation (every rule of SPEC §3, all violations) of 10,000-node graphs; goal: median
 * under 50 ms. Also times the cycle check of one edit on a 10,000-node chain and parsing a 10,000-node
 * document, the other two places that see whole graphs.
 */

const NODES = 10_000;
const GOAL_MS = 50;
const WARMUP = 10;
const REPEATS = 100;

export interface Timing {
  case: string;
  nodes: number;
  edges: number;
  violations: number;
  medianMs: number;
  p99Ms: number;
  minMs: number;
  maxMs: number;
  repeats: number;
}

export interface ValidateGraphResults {
  name: "validate-graph";
  machine: MachineInfo;
  /** One-minute load average when the run started: the machine is shared, so medians move with it. */
  loadAverage: number;
  goalMs: number;
  withinGoal: boolean;
  timings: Timing[];
}

/** Lanes i ─► g ─► v fanned into one ensemble ─► va ─► vb ─► o: a valid graph of `nodes` nodes. */
function fanIn(nodes: number): WorkflowGraph {
  const lanes = Math.floor((nodes - 4) / 3);
  const list: WorkflowNode[] = [{ id: "e", type: "ensemble", provider: "offline", model: "echo" }];
  const edges: WorkflowEdge[] = [];
  const link = (source: string, target: string) => edges.push({ id: `x${edges.length + 1}`, source, target });
  for (let k = 0; k < lanes; k += 1) {
    list.push(
      { id: `i${k}`, type: "input", content: "" },
      { id: `g${k}`, type: "generation", provider: "offline", model: "echo" },
      { id: `v${k}`, type: "validation", provider: "offline", model: "echo" },
    );
    link(`i${k}`, `g${k}`);
    link(`g${k}`, `v${k}`);
    link(`v${k}`, "e");
  }
  list.push(
    { id: "va", type: "validation", provider: "offline", model: "echo" },
    { id: "vb", type: "validation", provider: "offline", model: "echo" },
    { id: "o", type: "output" },
  );
  link("e", "va");
  link("va", "vb");
  link("vb", "o");
  return { nodes: list, edges };
}

/** The same graph with a defect in every tenth lane (forbidden pair, missing model, extra pre-node) and a cycle. */
function fanInWithViolations(nodes: number): WorkflowGraph {
  const graph = fanIn(nodes);
  graph.nodes = graph.nodes.map((node, k) => (k % 30 === 2 ? { id: node.id, type: node.type } : node));
  graph.edges = graph.edges.map((edge, k) => (k % 30 === 0 && edge.target.startsWith("g") ? { ...edge, source: "e" } : edge));
  graph.edges.push({ id: "loop", source: "vb", target: "va" });
  return graph;
}

/** i ─► v1 ─► v2 ─► … ─► o: the longest path a 10,000-node graph can have. */
function chain(nodes: number): WorkflowGraph {
  const list: WorkflowNode[] = [{ id: "i", type: "input", content: "" }];
  const edges: WorkflowEdge[] = [];
  let previous = "i";
  for (let k = 1; k < nodes - 1; k += 1) {
    list.push({ id: `v${k}`, type: "validation", provider: "offline", model: "echo" });
    edges.push({ id: `c${k}`, source: previous, target: `v${k}` });
    previous = `v${k}`;
  }
  list.push({ id: "o", type: "output" });
  edges.push({ id: "last", source: previous, target: "o" });
  return { nodes: list, edges };
}

const models = [{ provider: "offline", model: "echo" }];

function measure(label: string, graph: WorkflowGraph, work: () => number): Timing {
  let violations = 0;
  for (let k = 0; k < WARMUP; k += 1) violations = work();
  const samples: number[] = [];
  for (let k = 0; k < REPEATS; k += 1) {
    const started = performance.now();
    violations = work();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => round(samples[Math.min(samples.length - 1, Math.ceil(q * samples.length) - 1)] ?? NaN);
  return {
    case: label,
    nodes: graph.nodes.length,
    edges: graph.edges.length,
    violations,
    medianMs: at(0.5),
    p99Ms: at(0.99),
    minMs: round(samples[0] ?? NaN),
    maxMs: round(samples.at(-1) ?? NaN),
    repeats: REPEATS,
  };
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

export async function run(): Promise<ValidateGraphResults> {
  const loadAverage = Math.round((loadavg()[0] ?? 0) * 100) / 100;
  const valid = fanIn(NODES);
  const broken = fanInWithViolations(NODES);
  const line = chain(NODES);
  const document = stringifyWorkflow({ ...createNewWorkflow("bench"), ...valid });
  const timings = [
    measure("validateWorkflow, valid fan-in", valid, () => validateWorkflow(valid, { registry: builtInRegistry, models }).length),
    measure("validateWorkflow, fan-in with violations and a cycle", broken, () => validateWorkflow(broken, { registry: builtInRegistry, models }).length),
    measure("validateWorkflow, one long chain", line, () => validateWorkflow(line, { registry: builtInRegistry, models }).length),
    measure("checkAddEdge closing a cycle across the chain", line, () => checkAddEdge(line, `v${NODES - 2}`, "v1", { registry: builtInRegistry }).length),
    measure(`parseWorkflowDocument, ${Math.round(document.length / 1024)} KiB document`, valid, () => {
      const parsed = parseWorkflowDocument(document, { registry: builtInRegistry });
      return parsed.ok ? 0 : parsed.issues.length;
    }),
  ];
  const validation = timings.filter((timing) => timing.case.startsWith("validateWorkflow"));
  const results: ValidateGraphResults = {
    name: "validate-graph",
    machine: machineInfo(),
    loadAverage,
    goalMs: GOAL_MS,
    withinGoal: validation.every((timing) => timing.medianMs < GOAL_MS),
    timings,
  };
  report(results);
  return results;
}

function report(results: ValidateGraphResults): void {
  const rows = results.timings.map(
    (t) => `| ${t.case} | ${t.nodes} | ${t.edges} | ${t.violations} | ${t.medianMs} | ${t.p99Ms} | ${t.minMs} |`,
  );
  const table = [
    "| case | nodes | edges | violations found | median ms | p99 ms | min ms |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...rows,
  ].join("\n");
  console.log(`validate-graph — ${machineLine(results.machine)} · load ${results.loadAverage}`);
  console.log(table);
  console.log(`goal: whole-graph validation median < ${results.goalMs} ms → ${results.withinGoal ? "met" : "NOT met"}`);
  const file = writeResult("validate-graph", results);
  console.log(`wrote ${file}`);
  writeDocSection(
    "validate-graph",
    [
      "## Whole-graph validation (validate-graph)",
      "",
      `\`bench/src/validate-graph.bench.ts\`: every connection rule over 10,000-node graphs (goal: median < ${results.goalMs} ms),`,
      `${REPEATS} timed repeats after ${WARMUP} warm-up runs; also one edit's cycle check and parsing a whole document.`,
      "",
      `Machine: ${machineLine(results.machine)}; load average ${results.loadAverage} at the start (the machine is shared:`,
      "medians and p99 rise with other work, the minimum is closest to the uncontended cost).",
      "",
      table,
      "",
      `Goal ${results.withinGoal ? "met" : "NOT met"}. Raw figures: \`bench/results/validate-graph.json\`.`,
    ].join("\n"),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
