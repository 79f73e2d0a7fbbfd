import { createNewWorkflow, stringifyWorkflow, type Workflow } from "@weft/engine";
import { machineInfo, machineLine } from "./machine-info.js";
import { writeDocSection, writeResult } from "./results-writer.js";
import { percentile, round, startApi } from "./api-harness.js";

/**
 * Edit-mutation latency on a 500-node workflow, over HTTP through the whole API: every edit takes the
 * workflow's row lock, reads the part of the graph its rules look at, checks them with the engine and
 * writes. Besides wall time, the process's CPU time per edit (API, embedded database and client share
 * the process): on a shared machine it moves far less with the load than latency does.
 *
 *   in ──▶ g1 … g497 ──▶ e1 ──▶ out        (built by importWorkflow)
 *
 * Each round: addNode (a generation node), addEdge (in → it), updateNode (its prompt), removeEdge,
 * removeNode — the graph is back to 500 nodes after every round.
 */
const NODES = 500;
// 200 samples per edit: with 40, p99 was the slowest sample.
const ROUNDS = 200;
const WARMUP = 5;

function bigWorkflow(): Workflow {
  const generations = NODES - 3;
  const model = (id: string, type: string) => ({ id, type, provider: "offline", model: "echo" });
  const gs = Array.from({ length: generations }, (_, index) => model(`g${index + 1}`, "generation"));
  return {
    ...createNewWorkflow("500 nodes"),
    nodes: [{ id: "in", type: "input", content: "x" }, ...gs, model("e1", "ensemble"), { id: "out", type: "output", content: "" }],
    edges: [
      ...gs.map((node, index) => ({ id: `a${index + 1}`, source: "in", target: node.id })),
      ...gs.map((node, index) => ({ id: `b${index + 1}`, source: node.id, target: "e1" })),
      { id: "c1", source: "e1", target: "out" },
    ],
  };
}

const OPERATIONS = {
  addNode: `mutation ($w: ID!, $id: ID!) { addNode(workflowId: $w, input: { type: "generation", id: $id, provider: "offline", model: "echo" }) { node { id } errors { code message } } }`,
  addEdge: `mutation ($w: ID!, $t: ID!) { addEdge(workflowId: $w, source: "in", target: $t) { edge { id } errors { code message } } }`,
  updateNode: `mutation ($w: ID!, $id: ID!) { updateNode(workflowId: $w, nodeId: $id, input: { prompt: "Summarise {input_data}" }) { node { id } errors { code message } } }`,
  removeEdge: `mutation ($w: ID!, $e: ID!) { removeEdge(workflowId: $w, edgeId: $e) { removedEdgeId errors { code message } } }`,
  removeNode: `mutation ($w: ID!, $id: ID!) { removeNode(workflowId: $w, nodeId: $id) { removedNodeId errors { code message } } }`,
} as const;

type OperationName = keyof typeof OPERATIONS;

export async function run(): Promise<unknown> {
  const api = await startApi();
  const samples: Record<OperationName, number[]> = { addNode: [], addEdge: [], updateNode: [], removeEdge: [], removeNode: [] };
  const cpu: Record<OperationName, number[]> = { addNode: [], addEdge: [], updateNode: [], removeEdge: [], removeNode: [] };
  try {
    const imported = await api.request<{ importWorkflow: { workflow: { id: string } | null; errors: unknown[] } }>(
      `mutation ($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }`,
      { document: stringifyWorkflow(bigWorkflow()) },
    );
    if (!imported.importWorkflow.workflow) throw new Error(`import refused: ${JSON.stringify(imported.importWorkflow.errors)}`);
    const w = imported.importWorkflow.workflow.id;
    const timed = async (name: OperationName, variables: Record<string, unknown>, record: boolean) => {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const data = await api.request<Record<string, { errors: unknown[] } & Record<string, { id?: string } | string | null>>>(OPERATIONS[name], variables);
      const elapsed = performance.now() - t0;
      const used = process.cpuUsage(cpu0);
      const payload = Object.values(data)[0]!;
      if (payload.errors.length > 0) throw new Error(`${name} refused: ${JSON.stringify(payload.errors)}`);
      if (record) {
        samples[name].push(elapsed);
        cpu[name].push((used.user + used.system) / 1000);
      }
      return payload;
    };
    for (let round = 0; round < WARMUP + ROUNDS; round += 1) {
      const record = round >= WARMUP;
      const id = `bench-${round}`;
      await timed("addNode", { w, id }, record);
      const edge = (await timed("addEdge", { w, t: id }, record))["edge"] as { id: string };
      await timed("updateNode", { w, id }, record);
      await timed("removeEdge", { w, e: edge.id }, record);
      await timed("removeNode", { w, id }, record);
    }
  } finally {
    await api.close();
  }
  const machine = machineInfo();
  const rows = (Object.keys(samples) as OperationName[]).map((name) => {
    const sorted = [...samples[name]].sort((a, b) => a - b);
    const cpuSorted = [...cpu[name]].sort((a, b) => a - b);
    return {
      mutation: name,
      p50Ms: round(percentile(sorted, 50), 1),
      p99Ms: round(percentile(sorted, 99), 1),
      minMs: round(sorted[0] ?? 0, 1),
      cpuP50Ms: round(percentile(cpuSorted, 50), 1),
      samples: sorted.length,
    };
  });
  const result = { machine, database: "embedded (PGlite)", nodes: NODES, edges: 2 * (NODES - 3) + 1, rounds: ROUNDS, mutations: rows };
  console.log(`\napi-edit-latency: ${machineLine(machine)}`);
  for (const row of rows) console.log(`  ${row.mutation.padEnd(11)} p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms, min ${row.minMs} ms, CPU p50 ${row.cpuP50Ms} ms`);
  writeResult("api-edit-latency", result);
  writeDocSection(
    "api-edit-latency",
    `## API: edit-mutation latency on a 500-node workflow (api-edit-latency)

\`bench/src/api-edit-latency.bench.ts\`: the built API on the embedded database; a ${NODES}-node, ${result.edges}-edge
workflow created with \`importWorkflow\`; ${ROUNDS} timed rounds (after ${WARMUP} warm-up rounds) of addNode → addEdge →
updateNode → removeEdge → removeNode over HTTP. Each edit locks the workflow row, reads the part of the graph its
rules look at (indexed neighbourhoods), checks the edit-time rules and writes, in one transaction. CPU is the
process's CPU time per edit (API, embedded database and client share the process): on a shared machine it moves
far less with the load than latency does.

Machine: ${machineLine(machine)} (load average ${machine.loadAverage}).

| mutation | p50 | p99 | min | CPU per edit (p50) |
|---|---:|---:|---:|---:|
${rows.map((row) => `| ${row.mutation} | ${row.p50Ms} ms | ${row.p99Ms} ms | ${row.minMs} ms | ${row.cpuP50Ms} ms |`).join("\n")}

Raw figures: \`bench/results/api-edit-latency.json\`.`,
  );
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
