import { createNewWorkflow, stringifyWorkflow, type Workflow } from "@weft/engine";
import { machineInfo, machineLine } from "./machine-info.js";
import { writeDocSection, writeResult } from "./results-writer.js";
import { percentile, round, startApi } from "./api-harness.js";

/**
 * Runs per second through the whole API with the offline echo model: each of WORKERS clients owns a
 * workflow (one active run per workflow) and loops runWorkflow over HTTP → wait for COMPLETED on a
 * runStatusChanged subscription (WebSocket) → next. Every run writes its events, node runs and status.
 *
 *   in ──▶ g1 (offline echo) ──▶ v1 (offline echo) ──▶ out
 */
const WORKERS = 8;
const DURATION_MS = 15_000;

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

export async function run(): Promise<unknown> {
  const api = await startApi({ env: { WEFT_PROCESS_CONCURRENCY: String(WORKERS * 2) } });
  const latencies: number[] = [];
  let completed = 0;
  let failed = 0;
  let elapsedMs = 0;
  try {
    const workflowIds: string[] = [];
    for (let index = 0; index < WORKERS; index += 1) {
      const data = await api.request<{ importWorkflow: { workflow: { id: string } } }>(
        `mutation ($document: JSON!) { importWorkflow(document: $document) { workflow { id } } }`,
        { document: stringifyWorkflow(workflow(index)) },
      );
      workflowIds.push(data.importWorkflow.workflow.id);
    }
    const waiting = new Map<string, (status: string) => void>();
    const client = api.ws();
    const ready = new Promise<void>((resolve) => client.on("connected", () => resolve()));
    const dispose = client.subscribe<{ runStatusChanged: { runId: string; status: string } }>(
      { query: `subscription { runStatusChanged { runId status } }` },
      {
        next: ({ data }) => {
          const change = data?.runStatusChanged;
          if (change && ["COMPLETED", "FAILED", "CANCELLED"].includes(change.status)) waiting.get(change.runId)?.(change.status);
        },
        error: (error) => console.error(error),
        complete: () => undefined,
      },
    );
    await ready;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = performance.now();
    const deadline = started + DURATION_MS;
    await Promise.all(
      workflowIds.map(async (workflowId) => {
        while (performance.now() < deadline) {
          const t0 = performance.now();
          const data = await api.request<{ runWorkflow: { run: { id: string } | null; errors: { code: string }[] } }>(
            `mutation ($id: ID!) { runWorkflow(workflowId: $id) { run { id } errors { code } } }`,
            { id: workflowId },
          );
          const runId = data.runWorkflow.run?.id;
          if (!runId) throw new Error(`run refused: ${JSON.stringify(data.runWorkflow.errors)}`);
          const status = await new Promise<string>((resolve) => waiting.set(runId, resolve));
          waiting.delete(runId);
          latencies.push(performance.now() - t0);
          if (status === "COMPLETED") completed += 1;
          else failed += 1;
        }
      }),
    );
    elapsedMs = performance.now() - started;
    dispose();
    await client.dispose();
  } finally {
    await api.close();
  }
  latencies.sort((a, b) => a - b);
  const machine = machineInfo();
  const result = {
    machine,
    database: "embedded (PGlite)",
    workers: WORKERS,
    durationMs: round(elapsedMs, 0),
    completed,
    failed,
    runsPerSecond: round((completed / elapsedMs) * 1000, 1),
    runLatencyP50Ms: round(percentile(latencies, 50), 1),
    runLatencyP99Ms: round(percentile(latencies, 99), 1),
  };
  console.log(`\napi-throughput: ${machineLine(machine)}`);
  console.log(`  ${result.runsPerSecond} runs/s (${completed} completed, ${failed} failed, ${WORKERS} clients, ${result.durationMs} ms); start → COMPLETED p50 ${result.runLatencyP50Ms} ms, p99 ${result.runLatencyP99Ms} ms`);
  writeResult("api-throughput", result);
  writeDocSection(
    "api-throughput",
    `## API: runs per second with the offline provider (api-throughput)

\`bench/src/api-throughput.bench.ts\`: the built API on the embedded database; ${WORKERS} clients, each owning a
4-node workflow (input → generation → validation → output, offline echo model), loop \`runWorkflow\` over HTTP and
wait for COMPLETED on a \`runStatusChanged\` WebSocket subscription, for ${DURATION_MS / 1000} s. Each run stores 12+
events, its node runs and its status changes.

Machine: ${machineLine(machine)} (load average ${machine.loadAverage}).

| runs/s | completed | failed | start → COMPLETED p50 | p99 |
|---:|---:|---:|---:|---:|
| ${result.runsPerSecond} | ${completed} | ${failed} | ${result.runLatencyP50Ms} ms | ${result.runLatencyP99Ms} ms |

Raw figures: \`bench/results/api-throughput.json\`.`,
  );
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
