import { createNewWorkflow, stringifyWorkflow, type Workflow } from "@weft/engine";
import { machineInfo, machineLine, type MachineInfo } from "./machine-info.js";
import { writeDocSection, writeResult } from "./results-writer.js";
import { percentile, round, startApi, type ApiHarness } from "./api-harness.js";

/**
 * Runs per second through the whole API with the offline echo model: CLIENTS clients each loop
 * runWorkflow over HTTP → wait for COMPLETED on a runStatusChanged subscription (WebSocket) → next.
 * Every run writes its events, node runs and status. Three scenarios, each on a fresh server:
 *
 * - one published workflow shared by every client (the production case: many callers, one version);
 * - one published workflow per client;
 * - one workflow per client run as the draft (no version published), as before versions existed.
 *
 *   in ──▶ g1 (offline echo) ──▶ v1 (offline echo) ──▶ out
 */
const CLIENTS = 8;
const DURATION_MS = 15_000;
const WARM_UP_MS = 3_000;

interface Scenario {
  name: string;
  label: string;
  workflows: number;
  publish: boolean;
}

const SCENARIOS: Scenario[] = [
  { name: "oneVersion", label: `${CLIENTS} clients, one published workflow`, workflows: 1, publish: true },
  { name: "versionEach", label: `${CLIENTS} clients, a published workflow each`, workflows: CLIENTS, publish: true },
  { name: "draftEach", label: `${CLIENTS} clients, a workflow each, runs of the draft`, workflows: CLIENTS, publish: false },
];

interface ScenarioResult {
  scenario: string;
  label: string;
  durationMs: number;
  completed: number;
  failed: number;
  runsPerSecond: number;
  runLatencyP50Ms: number;
  runLatencyP99Ms: number;
  /** CPU time of the whole process (API, embedded database and clients) per completed run. */
  cpuMsPerRun: number;
  /** CPU time of the API's thread alone (HTTP, GraphQL, the engine, the clients; not the database's thread) per completed run. */
  apiThreadCpuMsPerRun: number;
  loadAverage: number;
}

function workflow(index: number): Workflow {
  const model = (id: string, type: string) => ({ id, type, provider: "offline", model: "echo" });
  return {
    ...createNewWorkflow(`throughput ${index}`),
    nodes: [{ id: "in", type: "input", content: `question ${index}` }, model("g1", "generation"), model("v1", "validation"), { id: "out", type: "output", content: "" }],
    edges: [
      { id: "e1", source: "in", target: "g1" },
      { id: "e2", source: "g1", target: "v1" },
      { id: "e3", source: "v1", target: "out" },
    ],
  };
}

async function importWorkflows(api: ApiHarness, scenario: Scenario): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < scenario.workflows; index += 1) {
    const data = await api.request<{ importWorkflow: { workflow: { id: string } } }>(
      `mutation ($document: JSON!, $publish: Boolean) { importWorkflow(document: $document, publish: $publish) { workflow { id } } }`,
      { document: stringifyWorkflow(workflow(index)), publish: scenario.publish },
    );
    ids.push(data.importWorkflow.workflow.id);
  }
  return ids;
}

async function measure(scenario: Scenario, durationMs = DURATION_MS): Promise<ScenarioResult> {
  const api = await startApi({ env: { WEFT_PROCESS_CONCURRENCY: String(CLIENTS * 2) } });
  const latencies: number[] = [];
  let completed = 0;
  let failed = 0;
  let elapsedMs = 0;
  let cpuMs = 0;
  let apiThreadCpuMs = 0;
  try {
    const workflowIds = await importWorkflows(api, scenario);
    const waiting = new Map<string, (status: string) => void>();
    // A run can end before its runWorkflow reply reaches the client: its status waits here until asked for.
    const ended = new Map<string, string>();
    const client = api.ws();
    const ready = new Promise<void>((resolve) => client.on("connected", () => resolve()));
    const dispose = client.subscribe<{ runStatusChanged: { runId: string; status: string } }>(
      { query: `subscription { runStatusChanged { runId status } }` },
      {
        next: ({ data }) => {
          const change = data?.runStatusChanged;
          if (!change || !["COMPLETED", "FAILED", "CANCELLED"].includes(change.status)) return;
          const waiter = waiting.get(change.runId);
          if (waiter) waiter(change.status);
          else ended.set(change.runId, change.status);
        },
        error: (error) => console.error(error),
        complete: () => undefined,
      },
    );
    await ready;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const cpuBefore = process.cpuUsage();
    const threadCpuBefore = process.threadCpuUsage();
    const started = performance.now();
    const deadline = started + durationMs;
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, index) => {
        const workflowId = workflowIds[index % workflowIds.length]!;
        while (performance.now() < deadline) {
          const t0 = performance.now();
          const data = await api.request<{ runWorkflow: { run: { id: string } | null; errors: { code: string }[] } }>(
            `mutation ($id: ID!) { runWorkflow(workflowId: $id) { run { id } errors { code } } }`,
            { id: workflowId },
          );
          const runId = data.runWorkflow.run?.id;
          if (!runId) throw new Error(`run refused: ${JSON.stringify(data.runWorkflow.errors)}`);
          const status = ended.get(runId) ?? (await new Promise<string>((resolve) => waiting.set(runId, resolve)));
          ended.delete(runId);
          waiting.delete(runId);
          latencies.push(performance.now() - t0);
          if (status === "COMPLETED") completed += 1;
          else failed += 1;
        }
      }),
    );
    elapsedMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    cpuMs = (cpu.user + cpu.system) / 1000;
    const threadCpu = process.threadCpuUsage(threadCpuBefore);
    apiThreadCpuMs = (threadCpu.user + threadCpu.system) / 1000;
    dispose();
    await client.dispose();
  } finally {
    await api.close();
  }
  latencies.sort((a, b) => a - b);
  return {
    scenario: scenario.name,
    label: scenario.label,
    durationMs: round(elapsedMs, 0),
    completed,
    failed,
    runsPerSecond: round((completed / elapsedMs) * 1000, 1),
    runLatencyP50Ms: round(percentile(latencies, 50), 1),
    runLatencyP99Ms: round(percentile(latencies, 99), 1),
    cpuMsPerRun: round(cpuMs / Math.max(completed, 1), 2),
    apiThreadCpuMsPerRun: round(apiThreadCpuMs / Math.max(completed, 1), 2),
    loadAverage: machineInfo().loadAverage,
  };
}

export async function run(): Promise<unknown> {
  // A short pass of every scenario first, thrown away: the first servers of the process pay for compiling the code
  // (with one draft pass only, the scenario measured first ran 15–20 % slower than the same one measured later).
  for (const scenario of SCENARIOS) await measure(scenario, WARM_UP_MS);
  const results: ScenarioResult[] = [];
  for (const scenario of SCENARIOS) results.push(await measure(scenario));
  const machine = machineInfo();
  const byName = Object.fromEntries(results.map((result) => [result.scenario, result]));
  const sharing = round(byName["oneVersion"]!.runsPerSecond / byName["versionEach"]!.runsPerSecond, 2);
  const result = { machine, database: "embedded (PGlite)", clients: CLIENTS, scenarios: results, oneVersionOverVersionEach: sharing };
  console.log(`\napi-throughput: ${machineLine(machine)}`);
  for (const entry of results) {
    console.log(`  ${entry.label}: ${entry.runsPerSecond} runs/s (${entry.completed} completed, ${entry.failed} failed); start → COMPLETED p50 ${entry.runLatencyP50Ms} ms, p99 ${entry.runLatencyP99Ms} ms; ${entry.cpuMsPerRun} ms CPU per run, ${entry.apiThreadCpuMsPerRun} ms of it on the API's thread (load ${entry.loadAverage})`);
  }
  console.log(`  one shared version ÷ a version each: ${sharing}`);
  writeResult("api-throughput", result);
  writeDocSection("api-throughput", docSection(machine, results, sharing));
  return result;
}

function docSection(machine: MachineInfo, results: ScenarioResult[], sharing: number): string {
  const rows = results.map(
    (entry) =>
      `| ${entry.label} | ${entry.runsPerSecond} | ${entry.cpuMsPerRun} ms | ${entry.apiThreadCpuMsPerRun} ms | ${entry.completed} | ${entry.failed} | ${entry.runLatencyP50Ms} ms | ${entry.runLatencyP99Ms} ms | ${entry.loadAverage} |`,
  );
  return `## API: runs per second with the offline provider (api-throughput)

\`bench/src/api-throughput.bench.ts\`: the built API on the embedded database; ${CLIENTS} clients loop \`runWorkflow\` over
HTTP and wait for COMPLETED on a \`runStatusChanged\` WebSocket subscription, for ${DURATION_MS / 1000} s per scenario, each
on a fresh server (after a 3 s pass of each, thrown away). The workflow: input → generation → validation → output, offline echo
model. Each run stores 12+ events, its node runs and its status changes. "CPU per run" is the process's CPU time
(API, embedded database and the clients, all in one process) divided by the runs completed: on a shared machine it
moves less with the load than runs per second do. The embedded database runs on a thread of its own
(docs/persistence.md), so the process uses up to two cores and runs per second can pass 1000 ÷ CPU per run; the
API's thread's own share bounds what that thread can serve.

Machine: ${machineLine(machine)} (load average ${machine.loadAverage} at the end; per scenario in the table). The machine is shared
with other work: figures move with its load.

| scenario | runs/s | CPU per run | of it, the API's thread | completed | failed | start → COMPLETED p50 | p99 | load |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
${rows.join("\n")}

One shared published workflow ÷ a published workflow per client: **${sharing}**. Raw figures: \`bench/results/api-throughput.json\`.`;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
