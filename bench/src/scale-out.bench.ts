import { randomBytes } from "node:crypto";
import {
  acquirePostgres,
  arrows,
  openTestDatabase,
  releasePostgres,
  startApiProcess,
  startRedisServer,
  type ApiProcess,
  type RedisServer,
  type TestDatabase,
} from "@weft/api/testing/services";
import { stringifyWorkflow, type Workflow } from "@weft/engine";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { percentile, round } from "./api-harness.js";
import { machineInfo, machineLine } from "./machine-info.js";
import { writeDocSection, writeResult } from "./results-writer.js";

/**
 * Weft as API and worker processes on PostgreSQL and Redis (every process is a real `main.ts --role …`
 * Node process on this machine, next to its PostgreSQL and Redis):
 *
 * - runs per second with 1, 2 and 4 workers: a 5-node graph (in ──▶ g1 ──▶ v1 ──▶ v2 ──▶ out, three
 *   offline model nodes waiting 200 ms each), 64 runs started through one API process;
 * - event latency from the worker to a WebSocket client of another process (event time → arrival of
 *   each NODE_COMPLETED emitted after the client subscribed; 100 runs of an 11-node chain with 20 ms model
 *   nodes after 20 runs of warm-up, 1,100 samples), against the same path inside one process without Redis;
 * - time from kill -9 of the worker executing a run to RUN_RESUMED at a client, and to its end.
 *
 * Many subscribers of one run on one API process: fan-out.bench.ts.
 *
 * Event times are the worker's wall clock (ms) compared with the client's: same machine, same clock,
 * millisecond resolution (both truncated, so a sample is within 1 ms of the true delay, unbiased on average).
 */
const RUNS = 64;
const WORKER_COUNTS = [1, 2, 4];
const KILLS = 3;
/** Runs of the 11-node chain per event-latency figure: 11 samples each, so p99 is not one or two stragglers. */
const LATENCY_RUNS = 100;
/**
 * Runs first, not measured: the worker process has just started, and the first runs of a process run cold
 * code (measured: 11 of the first 110 samples took 8 ms or more, 0–3 of each next 110).
 */
const LATENCY_WARMUP_RUNS = 20;

const RUN = `mutation ($id: ID!) { runWorkflow(workflowId: $id) { run { id } errors { code message } } }`;
const TERMINAL = new Set(["RUN_COMPLETED", "RUN_FAILED", "RUN_CANCELLED"]);
const FOLLOW = `subscription ($id: ID!) { runEvents(runId: $id, afterSeq: 0) { seq type at } }`;

interface Setup {
  database: TestDatabase;
  redis: RedisServer;
  adminKey: string;
  env(): Record<string, string>;
}

async function startRun(api: ApiProcess, workflowId: string): Promise<string> {
  const data = await api.admin.request<{ runWorkflow: { run: { id: string } | null; errors: unknown[] } }, { id: string }>(RUN, { id: workflowId });
  if (!data.runWorkflow.run) throw new Error(`run refused: ${JSON.stringify(data.runWorkflow.errors)}`);
  return data.runWorkflow.run.id;
}

async function importWorkflow(api: ApiProcess, workflow: Workflow): Promise<string> {
  const data = await api.admin.request<{ importWorkflow: { workflow: { id: string } | null; errors: unknown[] } }, { document: string }>(
    `mutation ($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }`,
    { document: stringifyWorkflow(workflow) },
  );
  if (!data.importWorkflow.workflow) throw new Error(`import refused: ${JSON.stringify(data.importWorkflow.errors)}`);
  return data.importWorkflow.workflow.id;
}

async function waitForAll(database: TestDatabase, runIds: string[]): Promise<void> {
  for (;;) {
    const open = await database.prisma.run.count({ where: { id: { in: runIds }, status: { in: ["QUEUED", "RUNNING"] } } });
    if (open === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Follows a run on one client; `onEvent` gets each event with its arrival time (ms since the epoch) and
 * whether it was emitted before the subscription was asked for (then it can only have been read back
 * from the database when the subscription started: its delay is the subscription's start, not an event's way).
 */
function follow(
  client: Client,
  runId: string,
  onEvent: (event: { seq: number; type: string; at: string }, arrivedAt: number, beforeSubscription: boolean) => void,
): Promise<void> {
  const subscribedAt = Date.now();
  return new Promise((resolve, reject) => {
    client.subscribe<{ runEvents: { seq: number; type: string; at: string } }>(
      { query: FOLLOW, variables: { id: runId } },
      { next: ({ data }) => data && onEvent(data.runEvents, Date.now(), Date.parse(data.runEvents.at) < subscribedAt), error: reject, complete: resolve },
    );
  });
}

function wsClient(api: ApiProcess, lazy = true): Client {
  return createClient({ url: api.admin.wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, lazy, connectionParams: { authorization: `Bearer ${api.admin.key}` } });
}

/** A client whose connection is open and acknowledged, so opening it is not part of what is measured. */
async function connectedClient(api: ApiProcess): Promise<Client> {
  const client = wsClient(api, false);
  await new Promise<void>((resolve, reject) => {
    client.on("connected", () => resolve());
    client.on("error", reject);
  });
  return client;
}

async function throughput(setup: Setup, api: ApiProcess, workflowId: string): Promise<Record<string, number>> {
  const perWorkers: Record<string, number> = {};
  for (const count of WORKER_COUNTS) {
    const workers = await Promise.all(Array.from({ length: count }, () => startApiProcess("worker", setup.env(), setup.adminKey)));
    try {
      const started = performance.now();
      const runIds = await Promise.all(Array.from({ length: RUNS }, () => startRun(api, workflowId)));
      await waitForAll(setup.database, runIds);
      perWorkers[String(count)] = round(RUNS / ((performance.now() - started) / 1000), 2);
    } finally {
      await Promise.all(workers.map((worker) => worker.kill("SIGTERM")));
    }
  }
  return perWorkers;
}

interface Latency {
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  samples: number;
  /** NODE_COMPLETED events emitted before the client subscribed (replayed when it did), not counted above. */
  beforeSubscription: number;
  /** p99 of every NODE_COMPLETED, those emitted before the subscription included. */
  p99WithThoseMs: number;
}

/**
 * Event time → arrival of each NODE_COMPLETED, over runs started one after another and followed on one open
 * WebSocket connection, after runs that warm the processes up. A run's first event (its input node's) can
 * be emitted before the client has asked to follow the run (it learns the run's id from runWorkflow's
 * reply); such an event arrives by replay from the database and is counted apart.
 */
async function eventLatency(api: ApiProcess, workflowId: string): Promise<Latency> {
  const live: number[] = [];
  const all: number[] = [];
  const client = await connectedClient(api);
  try {
    for (let run = 0; run < LATENCY_WARMUP_RUNS + LATENCY_RUNS; run += 1) {
      const runId = await startRun(api, workflowId);
      await follow(client, runId, (event, arrivedAt, beforeSubscription) => {
        if (event.type !== "NODE_COMPLETED" || run < LATENCY_WARMUP_RUNS) return;
        all.push(arrivedAt - Date.parse(event.at));
        if (!beforeSubscription) live.push(arrivedAt - Date.parse(event.at));
      });
    }
  } finally {
    await client.dispose();
  }
  live.sort((a, b) => a - b);
  all.sort((a, b) => a - b);
  return {
    p50Ms: percentile(live, 50),
    p90Ms: percentile(live, 90),
    p99Ms: percentile(live, 99),
    maxMs: live.at(-1) ?? 0,
    samples: live.length,
    beforeSubscription: all.length - live.length,
    p99WithThoseMs: percentile(all, 99),
  };
}

async function killToResume(setup: Setup, api: ApiProcess, workflowId: string): Promise<{ resumedMs: number[]; completedMs: number[] }> {
  const resumedMs: number[] = [];
  const completedMs: number[] = [];
  let workers = await Promise.all([0, 1].map(() => startApiProcess("worker", { ...setup.env(), WEFT_QUEUE_LOCK_MS: "5000" }, setup.adminKey)));
  try {
    for (let kill = 0; kill < KILLS; kill += 1) {
      const runId = await startRun(api, workflowId);
      const client = wsClient(api);
      let killedAt = 0;
      let killing: Promise<void> | null = null;
      const done = follow(client, runId, (event, arrivedAt) => {
        if (event.type === "RUN_RESUMED" && killedAt) resumedMs.push(arrivedAt - killedAt);
        if (TERMINAL.has(event.type) && killedAt) completedMs.push(arrivedAt - killedAt);
        // The first model node has started: kill the worker executing the run.
        if (event.type === "NODE_STARTED" && event.seq > 3 && !killing) killing = killOwner();
      });
      const killOwner = async () => {
        const { claimedBy } = await setup.database.prisma.run.findUniqueOrThrow({ where: { id: runId }, select: { claimedBy: true } });
        const owner = workers.find((worker) => worker.pid === Number(claimedBy?.split(":")[1]));
        if (!owner) return;
        killedAt = Date.now();
        await owner.kill("SIGKILL");
        workers = [...workers.filter((worker) => worker !== owner), await startApiProcess("worker", { ...setup.env(), WEFT_QUEUE_LOCK_MS: "5000" }, setup.adminKey)];
      };
      await done;
      await killing;
      await client.dispose();
    }
  } finally {
    await Promise.all(workers.map((worker) => worker.kill("SIGTERM")));
  }
  return { resumedMs, completedMs };
}

export async function run(): Promise<unknown> {
  const [redis] = await Promise.all([startRedisServer(), acquirePostgres()]);
  const database = await openTestDatabase("server");
  const single = await openTestDatabase("server");
  const adminKey = `weft_bench_${randomBytes(24).toString("base64url")}`;
  const setup: Setup = {
    database,
    redis,
    adminKey,
    env: () => ({
      DATABASE_URL: database.location,
      REDIS_URL: redis.url,
      WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE: "0",
      WEFT_RATE_LIMIT_RUNS_PER_MINUTE: "0",
      WEFT_MAX_WS_CONNECTIONS_PER_CALLER: "0",
    }),
  };
  const apis = await Promise.all([startApiProcess("api", setup.env(), adminKey), startApiProcess("api", setup.env(), adminKey)]);
  const alone = await startApiProcess("all", { ...setup.env(), DATABASE_URL: single.location, REDIS_URL: "" }, adminKey);
  try {
    const fiveNodes = arrows(["in->g1->v1->v2->out"], { params: { delayMs: 200 } });
    const chain = arrows(["in->g1->v1->v2->v3->v4->v5->v6->v7->v8->out"], { params: { delayMs: 20 } });
    const slow = arrows(["in->g1->v1->v2->out"], { params: { delayMs: 1_500 } });
    const throughputWorkflow = await importWorkflow(apis[0]!, fiveNodes);
    const chainWorkflow = await importWorkflow(apis[0]!, chain);
    const slowWorkflow = await importWorkflow(apis[0]!, slow);
    const runsPerSecond = await throughput(setup, apis[0]!, throughputWorkflow);
    const worker = await startApiProcess("worker", setup.env(), adminKey);
    const crossProcess = await eventLatency(apis[1]!, chainWorkflow);
    await worker.kill("SIGTERM");
    const inProcess = await eventLatency(alone, await importWorkflow(alone, chain));
    const kills = await killToResume(setup, apis[0]!, slowWorkflow);
    const machine = machineInfo();
    const result = {
      machine,
      database: "PostgreSQL 15 (local, durability off)",
      redis: "Redis 7.0 (local, append-only file)",
      runsPerSecond: { graph: "5 nodes, 3 model nodes × 200 ms", runs: RUNS, byWorkers: runsPerSecond },
      eventLatencyMs: { crossProcess, inProcess, goal: { p50Ms: 3, p99Ms: 10 } },
      killToResumeMs: { lockMs: 5000, kills: KILLS, resumed: kills.resumedMs, completed: kills.completedMs },
    };
    console.log(JSON.stringify(result, null, 2));
    writeResult("scale-out", result);
    writeDocSection("scale-out", docSection(result, machine));
    return result;
  } finally {
    await Promise.all([...apis, alone].map((process) => process.kill("SIGTERM")));
    await Promise.all([database.close(), single.close()]);
    await releasePostgres();
    await redis.stop();
  }
}

function docSection(result: {
  runsPerSecond: { byWorkers: Record<string, number> };
  eventLatencyMs: { crossProcess: Latency; inProcess: Latency };
  killToResumeMs: { resumed: number[]; completed: number[] };
}, machine: ReturnType<typeof machineInfo>): string {
  const { crossProcess, inProcess } = result.eventLatencyMs;
  return [
    "## Scale-out: API and worker processes on PostgreSQL and Redis (scale-out)",
    "",
    `${machineLine(machine)} · load average ${machine.loadAverage}. **This machine has ${machine.nproc} cores**: every process (API, workers, PostgreSQL, Redis, the benchmark's clients) shares them, so more workers add concurrency, not CPU.`,
    "",
    "| workers | runs/s (64 runs of a 5-node graph, 3 × 200 ms model nodes) |",
    "|---|---|",
    ...Object.entries(result.runsPerSecond.byWorkers).map(([workers, perSecond]) => `| ${workers} | ${perSecond} |`),
    "",
    `| event latency, event time → WebSocket client (${LATENCY_RUNS} runs of an 11-node chain, 20 ms per model node) | p50 | p90 | p99 | max | samples | emitted before the subscription (p99 with them) |`,
    "|---|---|---|---|---|---|---|",
    ...([["worker process → another API process (Redis pub/sub)", crossProcess], ["one process, no Redis", inProcess]] as const).map(
      ([path, figure]) =>
        `| ${path} | ${figure.p50Ms} ms | ${figure.p90Ms} ms | ${figure.p99Ms} ms | ${figure.maxMs} ms | ${figure.samples} | ${figure.beforeSubscription} (${figure.p99WithThoseMs} ms) |`,
    ),
    "",
    `kill -9 of the worker executing a run (WEFT_QUEUE_LOCK_MS 5000) → RUN_RESUMED at the client: ${result.killToResumeMs.resumed.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(", ")}; → the run's end: ${result.killToResumeMs.completed.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(", ")}.`,
    "",
    "A sample is a NODE_COMPLETED emitted after the client asked to follow its run (on a WebSocket connection opened beforehand): the input node's completion, at the start of a run, can be emitted before the client knows the run's id; it then reaches the client by replay from the database when the subscription starts, so it measures that start, not an event's way, and it is counted apart (last column). Each figure follows 20 runs of warm-up: the worker process has just started, and its first runs are slower (cold code). Many subscribers of one run: see fan-out.",
    "",
    "Event times are the worker's clock (the event's `at`, whole milliseconds) compared with the client's `Date.now()` on the same machine: each sample is a whole number of milliseconds, within 1 ms of the true delay either way and unbiased on average (both ends are truncated alike), so the percentiles are whole milliseconds too.",
  ].join("\n");
}
