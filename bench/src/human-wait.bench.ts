import { createNewWorkflow, stringifyWorkflow } from "@weft/engine";
import { round, startApi, type ApiHarness } from "./api-harness.js";
import { APPROVAL, importWorkflow, LATENCY_SAMPLES, LATENCY_WARMUP, latency, latencyRow, startRun } from "./human-task-latency.js";
import { machineInfo, machineLine, type MachineInfo } from "./machine-info.js";
import { writeDocSection, writeResult } from "./results-writer.js";

/**
 * People in the loop (issue 25), through the API as clients use it:
 *
 * - WAITING runs cost nothing: one embedded process (PGlite) takes WAITING_RUNS runs that all wait for a
 *   person at once; the process's resident memory and V8 heap are read before and after (after a
 *   collection when Node runs with --expose-gc), and runs without human steps are timed (runs/s, 8
 *   clients, closed loop) before and with the waiting runs: a held slot or a held run would show there.
 * - Completing a task → the next node's NODE_STARTED at a WebSocket client (human-task-latency.ts), in
 *   that embedded process with the waiting runs. Across processes: human-wait-processes.bench.ts (its own
 *   process: the Prisma schema engine is set up once per process, for one database kind).
 *
 *   approval: see human-task-latency.ts        plain: in ─► g1 ─► v1 ─► out (offline echo)
 * Targets: ≤ 100 MB (≤ 10 KB a waiting run), runs/s unchanged; completion → NODE_STARTED p50 ≤ 20 ms, p99 ≤ 100 ms.
 */
const WAITING_RUNS = Number(process.env["WEFT_BENCH_WAITING_RUNS"] ?? 10_000);
const CLIENTS = 8;
const THROUGHPUT_MS = Number(process.env["WEFT_BENCH_THROUGHPUT_MS"] ?? 10_000);

const PLAIN = {
  ...createNewWorkflow("bench plain"),
  nodes: [{ id: "in", type: "input", content: "q" }, ...["g1", "v1"].map((id, index) => ({ id, type: index === 0 ? "generation" : "validation", provider: "offline", model: "echo" })), { id: "out", type: "output", content: "" }],
  edges: [{ id: "e1", source: "in", target: "g1" }, { id: "e2", source: "g1", target: "v1" }, { id: "e3", source: "v1", target: "out" }],
};

/** Runs per second of the plain workflow: CLIENTS clients each start a run and wait for its end, in a loop. */
async function plainRunsPerSecond(api: ApiHarness, workflowId: string): Promise<number> {
  const client = api.ws();
  const ended = new Map<string, () => void>();
  const early = new Set<string>();
  const dispose = client.subscribe<{ runStatusChanged: { runId: string; status: string } }>(
    { query: `subscription ($w: ID) { runStatusChanged(workflowId: $w) { runId status } }`, variables: { w: workflowId } },
    {
      next: ({ data }) => {
        const change = data?.runStatusChanged;
        if (!change || !["COMPLETED", "FAILED", "CANCELLED"].includes(change.status)) return;
        const waiter = ended.get(change.runId);
        if (waiter) waiter();
        else early.add(change.runId);
      },
      error: (error) => console.error(error),
      complete: () => undefined,
    },
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  let completed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() - started < THROUGHPUT_MS) {
        const runId = await startRun(api.request, workflowId);
        if (!early.delete(runId)) await new Promise<void>((resolve) => ended.set(runId, resolve));
        ended.delete(runId);
        completed += 1;
      }
    }),
  );
  const perSecond = completed / ((performance.now() - started) / 1000);
  dispose();
  await client.dispose();
  return round(perSecond, 1);
}

function memory(): { rssMiB: number; heapMiB: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  return { rssMiB: round(usage.rss / 2 ** 20, 1), heapMiB: round(usage.heapUsed / 2 ** 20, 1) };
}

/** Starts `count` runs (CLIENTS at a time) and waits until that many of the workflow's runs are WAITING. */
async function parkRuns(api: ApiHarness, workflowId: string, count: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < count) {
        next += 1;
        await startRun(api.request, workflowId);
      }
    }),
  );
  for (;;) {
    const data = await api.request<{ runs: { totalCount: number } }>("query ($w: ID!) { runs(workflowId: $w, status: [WAITING], first: 1) { totalCount } }", { w: workflowId });
    if (data.runs.totalCount >= count) return round((performance.now() - started) / 1000, 1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function embedded() {
  const api = await startApi({ env: { WEFT_PROCESS_CONCURRENCY: String(CLIENTS * 2) } });
  try {
    const plainId = await importWorkflow(api.request, stringifyWorkflow(PLAIN));
    const approvalId = await importWorkflow(api.request, APPROVAL);
    await plainRunsPerSecond(api, plainId); // warm-up, thrown away
    const before = { runsPerSecond: await plainRunsPerSecond(api, plainId), ...memory(), load: machineInfo().loadAverage };
    console.error(`human-wait: plain runs/s before: ${before.runsPerSecond}; parking ${WAITING_RUNS} runs`);
    const parkSeconds = await parkRuns(api, approvalId, WAITING_RUNS);
    const waiting = { ...memory(), load: machineInfo().loadAverage };
    const withWaiting = { runsPerSecond: await plainRunsPerSecond(api, plainId), load: machineInfo().loadAverage };
    const open = await api.request<{ humanTasks: { edges: { node: { runId: string } }[] } }>(
      "query ($w: ID!, $n: Int!) { humanTasks(status: [OPEN], workflowId: $w, first: $n) { edges { node { runId } } } }",
      { w: approvalId, n: 100 },
    );
    const runIds = open.humanTasks.edges.map((edge) => edge.node.runId);
    const extra = await Promise.all(Array.from({ length: Math.max(0, LATENCY_SAMPLES + LATENCY_WARMUP - runIds.length) }, () => startRun(api.request, approvalId)));
    const client = api.ws();
    console.error(`human-wait: parked in ${parkSeconds} s; timing ${LATENCY_SAMPLES} completions`);
    const completion = await latency(client, api.request, [...runIds, ...extra].slice(0, LATENCY_SAMPLES + LATENCY_WARMUP));
    await client.dispose();
    const growthMiB = round(waiting.rssMiB - before.rssMiB, 1);
    return {
      waitingRuns: WAITING_RUNS,
      parkSeconds,
      gcExposed: typeof (globalThis as { gc?: unknown }).gc === "function",
      before,
      waiting,
      withWaiting,
      rssGrowthMiB: growthMiB,
      rssPerWaitingRunKiB: round((growthMiB * 1024) / WAITING_RUNS, 2),
      heapGrowthMiB: round(waiting.heapMiB - before.heapMiB, 1),
      completion,
    };
  } finally {
    await api.close();
  }
}

export async function run(): Promise<unknown> {
  const local = await embedded();
  const machine = machineInfo();
  const result = { machine, embedded: local, targets: { rssGrowthMiB: 100, perRunKiB: 10, p50Ms: 20, p99Ms: 100 } };
  console.log(JSON.stringify(result, null, 2));
  writeResult("human-wait", result);
  writeDocSection("human-wait", docSection(machine, local));
  return result;
}

function docSection(machine: MachineInfo, local: Awaited<ReturnType<typeof embedded>>): string {
  const met = (ok: boolean) => (ok ? "yes" : "no");
  return `## People in the loop: waiting runs and completing a task (human-wait)

\`bench/src/human-wait.bench.ts\`, through the API as clients use it. **${local.waitingRuns.toLocaleString("en")} runs waiting at once** in one
embedded process (PGlite on its thread, in the same process): each reached its \`human\` node and is \`WAITING\` (started by
${CLIENTS} clients, all parked after ${local.parkSeconds} s). Memory read before and after${local.gcExposed ? ", after a collection" : " (no forced collection: Node ran without --expose-gc)"};
the plain workflow (input → generation → validation → output, offline echo) timed for ${THROUGHPUT_MS / 1000} s with ${CLIENTS} clients before and with the waiting runs.

| | resident memory | V8 heap | plain runs/s | load |
|---|---:|---:|---:|---:|
| before | ${local.before.rssMiB} MiB | ${local.before.heapMiB} MiB | ${local.before.runsPerSecond} | ${local.before.load} |
| ${local.waitingRuns.toLocaleString("en")} runs waiting | ${local.waiting.rssMiB} MiB | ${local.waiting.heapMiB} MiB | ${local.withWaiting.runsPerSecond} | ${local.withWaiting.load} |

Resident memory growth **${local.rssGrowthMiB} MiB, ${local.rssPerWaitingRunKiB} KiB a waiting run**; V8 heap growth ${local.heapGrowthMiB} MiB
(resident memory includes the embedded database's, which moves with its cache). Target ≤ 100 MB and ≤ 10 KB a run${local.waitingRuns < 10_000 ? " (stated for 10,000 runs; measured here with fewer)" : ""}: ${met(local.rssGrowthMiB <= 100 && local.rssPerWaitingRunKiB <= 10)}.

Completing a task → the next node's \`NODE_STARTED\` at a WebSocket client, from sending \`completeHumanTask\` (its HTTP round trip
included) to the event's arrival; ${LATENCY_SAMPLES} runs one after another after ${LATENCY_WARMUP} of warm-up:

| path | p50 | p99 | max | samples | target met (p50 ≤ 20 ms, p99 ≤ 100 ms) |
|---|---:|---:|---:|---:|---|
${latencyRow(`embedded, one process (with the ${local.waitingRuns.toLocaleString("en")} waiting runs)`, local.completion)}

The same across processes: human-wait-processes below.

Machine: ${machineLine(machine)} (load average ${machine.loadAverage} at the end). The machine is shared with other engineers' builds and tests:
figures move with its load. Raw figures: \`bench/results/human-wait.json\`.`;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
