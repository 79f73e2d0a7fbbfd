import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import {
  acquirePostgres,
  arrows,
  openTestDatabase,
  releasePostgres,
  startApiProcess,
  startRedisServer,
  type ApiProcess,
} from "@weft/api/testing/services";
import { stringifyWorkflow } from "@weft/engine";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { percentile } from "./api-harness.js";
import { machineInfo, machineLine } from "./machine-info.js";
import { writeDocSection, writeResult } from "./results-writer.js";

/**
 * One run followed by many subscribers on ONE API process, the run executed by a worker process (events
 * reach the API through Redis, as in scale-out), PostgreSQL and Redis on this machine:
 *
 * - 1, 100 and 1,000 subscriptions of one run over at most 50 WebSocket connections (one caller, limits
 *   off), opened before the run starts;
 * - 10,000 subscriptions on an API process with the default per-caller limits: 20 API keys, each with 10
 *   connections of 50 subscriptions (within 20 connections and 600 subscribes a minute per caller), with
 *   the process's resident and heap memory before and after; then one key's 21st connection and 601st
 *   subscribe, which the limits must refuse.
 *
 * The run: in ──▶ g1 ──▶ v1 ──▶ … ──▶ v20 ──▶ out, offline models; g1 waits (WAIT_MS) so that every
 * subscription is set up before the measured events, then each v node takes 20 ms. Samples are the
 * NODE_COMPLETED events' times (the worker's clock, whole ms) to their arrival at the client (same
 * machine, same clock). The client runs in this process: with 10,000 subscriptions its own work per event
 * (10,000 messages to parse) is part of the figure.
 */
const COUNTS = [1, 100, 1000];
const MAX_CONNECTIONS = 50;
const CHAIN = 20;
const LARGE = { keys: 20, connectionsPerKey: 10, subscriptionsPerConnection: 50 };
const WAIT_MS: Record<number, number> = { 1: 3_000, 100: 3_000, 1000: 5_000, 10000: 30_000 };

const RUN = `mutation ($id: ID!) { runWorkflow(workflowId: $id) { run { id } errors { code message } } }`;
const FOLLOW = `subscription ($id: ID!) { runEvents(runId: $id, afterSeq: 0) { seq type at } }`;
const NO_LIMITS = { WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE: "0", WEFT_RATE_LIMIT_RUNS_PER_MINUTE: "0", WEFT_MAX_WS_CONNECTIONS_PER_CALLER: "0" };

interface Lags {
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  samples: number;
}

export interface FanOutFigure {
  subscriptions: number;
  connections: number;
  /** Subscribe message sent → its first event (the stored ones, replayed), per subscription. */
  firstEvent: Lags;
  /** NODE_COMPLETED events emitted once every subscription had its first event: the fan-out alone. */
  live: Lags;
  /** NODE_COMPLETED events emitted after their subscription was asked for (the earlier benchmark's sample). */
  afterAsking: Lags;
  /**
   * The API process's CPU time (user + system, from /proc): per subscription while they were set up, and
   * per message sent (events × subscriptions) from then to the run's end. It moves far less with the
   * machine's load than the latencies do.
   */
  apiCpu: { setupMsPerSubscription: number; liveUsPerMessage: number };
  /** The same for this process, the clients: receiving is not free either. */
  clientCpu: { liveUsPerMessage: number };
}

/** CPU milliseconds a process has used (Linux: /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function lags(values: number[]): Lags {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50Ms: percentile(sorted, 50), p90Ms: percentile(sorted, 90), p99Ms: percentile(sorted, 99), maxMs: sorted.at(-1) ?? Number.NaN, samples: sorted.length };
}

async function gql<T>(api: ApiProcess, key: string, query: string, variables: Record<string, unknown>): Promise<T> {
  const response = await fetch(api.url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown[] };
  if (!body.data || body.errors) throw new Error(`GraphQL error: ${JSON.stringify(body.errors)}`);
  return body.data;
}

async function importChain(api: ApiProcess, waitMs: number): Promise<string> {
  const chain = Array.from({ length: CHAIN }, (_, i) => `v${i + 1}`).join("->");
  const workflow = arrows([`in->g1->${chain}->out`], { params: { delayMs: 20 } });
  for (const node of workflow.nodes) if (node.id === "g1") node.params = { delayMs: waitMs };
  const data = await gql<{ importWorkflow: { workflow: { id: string } | null; errors: unknown[] } }>(
    api,
    api.admin.key!,
    `mutation ($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }`,
    { document: stringifyWorkflow(workflow) },
  );
  if (!data.importWorkflow.workflow) throw new Error(`import refused: ${JSON.stringify(data.importWorkflow.errors)}`);
  return data.importWorkflow.workflow.id;
}

async function startRun(api: ApiProcess, workflowId: string): Promise<string> {
  const data = await gql<{ runWorkflow: { run: { id: string } | null; errors: unknown[] } }>(api, api.admin.key!, RUN, { id: workflowId });
  if (!data.runWorkflow.run) throw new Error(`run refused: ${JSON.stringify(data.runWorkflow.errors)}`);
  return data.runWorkflow.run.id;
}

/** A connection opened and acknowledged; rejects with the close code if the server refuses it. */
async function connect(api: ApiProcess, key: string): Promise<Client> {
  const client = createClient({ url: api.admin.wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false, onNonLazyError: () => undefined, connectionParams: { authorization: `Bearer ${key}` } });
  await new Promise<void>((resolve, reject) => {
    client.on("connected", () => resolve());
    client.on("closed", (event) => reject(new Error(`closed ${(event as { code?: number }).code}`)));
  });
  return client;
}

/** Follows one run on every subscription of `layout` (connection → subscriptions on it) and times what arrives. */
async function follow(api: ApiProcess, workflowId: string, connections: Client[], perConnection: number): Promise<FanOutFigure> {
  const runId = await startRun(api, workflowId);
  const total = connections.length * perConnection;
  const cpuAtStart = cpuMsOf(api.pid);
  let cpuWhenLive = Number.NaN;
  let clientCpuWhenLive = process.cpuUsage();
  let liveMessages = 0;
  const firstEvent: number[] = [];
  const firstAt: number[] = [];
  const samples: { emittedAt: number; lag: number; afterAsking: boolean }[] = [];
  const follows: Promise<void>[] = [];
  for (const connection of connections) {
    for (let k = 0; k < perConnection; k += 1) {
      const asked = Date.now();
      let first = true;
      follows.push(
        new Promise((resolve, reject) =>
          connection.subscribe<{ runEvents: { seq: number; type: string; at: string } }>(
            { query: FOLLOW, variables: { id: runId } },
            {
              next: ({ data }) => {
                const now = Date.now();
                if (first) {
                  first = false;
                  firstEvent.push(now - asked);
                  firstAt.push(now);
                  if (firstAt.length === total) {
                    cpuWhenLive = cpuMsOf(api.pid);
                    clientCpuWhenLive = process.cpuUsage();
                  }
                } else if (firstAt.length === total) {
                  liveMessages += 1;
                }
                const event = data?.runEvents;
                if (event?.type !== "NODE_COMPLETED") return;
                const emittedAt = Date.parse(event.at);
                samples.push({ emittedAt, lag: now - emittedAt, afterAsking: emittedAt >= asked });
              },
              error: reject,
              complete: resolve,
            },
          ),
        ),
      );
    }
  }
  await Promise.all(follows);
  const cpuAtEnd = cpuMsOf(api.pid);
  const clientCpu = process.cpuUsage(clientCpuWhenLive);
  const allLive = Math.max(...firstAt);
  return {
    subscriptions: total,
    connections: connections.length,
    firstEvent: lags(firstEvent),
    live: lags(samples.filter((sample) => sample.emittedAt > allLive).map((sample) => sample.lag)),
    afterAsking: lags(samples.filter((sample) => sample.afterAsking).map((sample) => sample.lag)),
    apiCpu: {
      setupMsPerSubscription: Math.round(((cpuWhenLive - cpuAtStart) / total) * 1000) / 1000,
      liveUsPerMessage: Math.round(((cpuAtEnd - cpuWhenLive) * 1000) / Math.max(1, liveMessages) * 10) / 10,
    },
    clientCpu: { liveUsPerMessage: Math.round(((clientCpu.user + clientCpu.system) / Math.max(1, liveMessages)) * 10) / 10 },
  };
}

/** The process's resident and V8 heap bytes, as its /metrics reports them. */
async function memoryOf(api: ApiProcess): Promise<{ residentBytes: number; heapUsedBytes: number }> {
  const text = await (await fetch(api.url.replace(/\/graphql$/, "/metrics"))).text();
  const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)`, "m").exec(text)?.[1] ?? Number.NaN);
  return { residentBytes: metric("weft_process_resident_memory_bytes"), heapUsedBytes: metric("weft_nodejs_heap_size_used_bytes") };
}

async function createKeys(api: ApiProcess, count: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const data = await gql<{ createApiKey: { key: string | null } }>(
      api,
      api.admin.key!,
      `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { key } }`,
      { input: { name: `follower ${i}`, scopes: ["read"] } },
    );
    keys.push(data.createApiKey.key!);
  }
  return keys;
}

/**
 * One key's connection over WEFT_MAX_WS_CONNECTIONS_PER_CALLER, as the limit answers it. Asked while the
 * key's connections are idle: once this process is many seconds behind on 10,000 subscriptions' messages,
 * it also misses the server's keep-alive pings (graphql-ws, every 12 s) and the server rightly drops
 * those connections, which frees their places.
 */
async function extraConnectionAnswer(api: ApiProcess, key: string, open: number): Promise<string> {
  let answer = "accepted";
  const extras: Client[] = [];
  try {
    for (let i = open; i <= 20; i += 1) extras.push(await connect(api, key));
  } catch (error) {
    answer = (error as Error).message;
  }
  await Promise.all(extras.map((client) => client.dispose()));
  return answer;
}

/** One key's subscribes over the request budget (600 a minute), as the limit answers them. */
async function extraSubscribeAnswer(api: ApiProcess, key: string, runId: string): Promise<string> {
  const client = await connect(api, key);
  let answer = "accepted";
  try {
    for (let i = 0; i < 200 && answer === "accepted"; i += 1) {
      await new Promise<void>((resolve) => {
        const stop = client.subscribe(
          { query: FOLLOW, variables: { id: runId } },
          {
            next: () => (stop(), resolve()),
            error: (errors) => ((answer = JSON.stringify((errors as { extensions?: { code?: string } }[])[0]?.extensions?.code)), resolve()),
            complete: () => resolve(),
          },
        );
      });
    }
  } finally {
    await client.dispose();
  }
  return answer;
}

export async function run(): Promise<unknown> {
  const [redis] = await Promise.all([startRedisServer(), acquirePostgres()]);
  const database = await openTestDatabase("server");
  const adminKey = `weft_bench_${randomBytes(24).toString("base64url")}`;
  const env = { DATABASE_URL: database.location, REDIS_URL: redis.url };
  const api = await startApiProcess("api", { ...env, ...NO_LIMITS }, adminKey);
  const limited = await startApiProcess("api", env, adminKey);
  const worker = await startApiProcess("worker", { ...env, ...NO_LIMITS }, adminKey);
  try {
    const figures: FanOutFigure[] = [];
    for (const count of COUNTS) {
      const workflowId = await importChain(api, WAIT_MS[count]!);
      const connections = await Promise.all(Array.from({ length: Math.min(count, MAX_CONNECTIONS) }, () => connect(api, adminKey)));
      figures.push(await follow(api, workflowId, connections, count / connections.length));
      await Promise.all(connections.map((connection) => connection.dispose()));
      console.log(JSON.stringify(figures.at(-1)));
    }

    const keys = await createKeys(limited, LARGE.keys);
    const connections = (await Promise.all(keys.map((key) => Promise.all(Array.from({ length: LARGE.connectionsPerKey }, () => connect(limited, key)))))).flat();
    const before = await memoryOf(limited);
    const extraConnection = await extraConnectionAnswer(limited, keys[0]!, LARGE.connectionsPerKey);
    const workflowId = await importChain(limited, WAIT_MS[10000]!);
    let after = before;
    const measuring = follow(limited, workflowId, connections, LARGE.subscriptionsPerConnection);
    // Once every subscription is open and caught up (the first model node is still waiting).
    await new Promise((resolve) => setTimeout(resolve, WAIT_MS[10000]! / 2));
    after = await memoryOf(limited);
    const large = await measuring;
    const runId = await startRun(limited, workflowId);
    const limits = { extraConnection, extraSubscribe: await extraSubscribeAnswer(limited, keys[0]!, runId) };
    await Promise.all(connections.map((connection) => connection.dispose()));
    console.log(JSON.stringify({ large, before, after, limits }));

    const machine = machineInfo();
    const memory = {
      residentBytesPerSubscription: Math.round((after.residentBytes - before.residentBytes) / large.subscriptions),
      heapBytesPerSubscription: Math.round((after.heapUsedBytes - before.heapUsedBytes) / large.subscriptions),
      before,
      after,
    };
    const result = { machine, figures, large, memory, limits, load: readFileSync("/proc/loadavg", "utf8").trim() };
    writeResult("fan-out", result);
    writeDocSection("fan-out", docSection(result));
    return result;
  } finally {
    await Promise.all([api, limited, worker].map((process) => process.kill("SIGTERM")));
    await database.close();
    await releasePostgres();
    await redis.stop();
  }
}

function docSection(result: {
  machine: ReturnType<typeof machineInfo>;
  figures: FanOutFigure[];
  large: FanOutFigure;
  memory: { residentBytesPerSubscription: number; heapBytesPerSubscription: number };
  limits: { extraConnection: string; extraSubscribe: string };
}): string {
  const row = (figure: FanOutFigure, limits: string) =>
    `| ${figure.subscriptions} | ${figure.connections} | ${limits} | ${figure.live.p50Ms} / ${figure.live.p90Ms} / ${figure.live.p99Ms} / ${figure.live.maxMs} ms (${figure.live.samples}) | ${figure.afterAsking.p50Ms} / ${figure.afterAsking.p99Ms} ms | ${figure.firstEvent.p50Ms} / ${figure.firstEvent.p99Ms} ms | ${figure.apiCpu.setupMsPerSubscription} ms | ${figure.apiCpu.liveUsPerMessage} µs |`;
  const { memory, limits } = result;
  return [
    "## One run, many subscribers on one API process (fan-out)",
    "",
    "`bench/src/fan-out.bench.ts`: an API process and a worker process on PostgreSQL and Redis (events reach the API through Redis), a run of",
    `in ──▶ g1 ──▶ v1 ──▶ … ──▶ v${CHAIN} ──▶ out (offline models; g1 waits until every subscription is set up, each v node takes 20 ms)`,
    "followed by every subscription, `runEvents(runId, afterSeq: 0) { seq type at }`. A sample is a NODE_COMPLETED's time (the worker's clock, whole",
    "milliseconds) to its arrival at the client, in this process (with 10,000 subscriptions the client's own work per event is in the figure).",
    "",
    `${machineLine(result.machine)} · load average ${result.machine.loadAverage} (the machine is shared: figures move with its load).`,
    "",
    "| subscriptions | connections | per-caller limits | live events p50 / p90 / p99 / max (samples) | events after asking p50 / p99 | subscribe → first event p50 / p99 | API CPU per subscribe | API CPU per message |",
    "|---:|---:|---|---|---|---|---:|---:|",
    ...result.figures.map((figure) => row(figure, "off (one caller)")),
    row(result.large, `on: ${LARGE.keys} keys × ${LARGE.connectionsPerKey} connections × ${LARGE.subscriptionsPerConnection}`),
    "",
    "Live events: emitted once every subscription had its first event (the fan-out alone). Events after asking: emitted after their",
    "subscription was asked for, so those that came while it was being set up (by replay) are counted too. Subscribe → first event: the",
    "subscribe message to the first (stored, replayed) event. API CPU: the API process's CPU time (/proc) while the subscriptions were set",
    "up, per subscription, and from then to the run's end per message sent (events × subscriptions); it moves far less with the load.",
    "",
    `Memory with 10,000 subscriptions open (the process's /metrics, before subscribing and once all were set up): ${memory.residentBytesPerSubscription} bytes`,
    `resident and ${memory.heapBytesPerSubscription} bytes of V8 heap per subscription. The limits still answer at that scale: a key's 21st connection,`,
    `with the 200 connections open before the run (WEFT_MAX_WS_CONNECTIONS_PER_CALLER 20): ${limits.extraConnection}; its subscribes past 600 a minute, after the run: ${limits.extraSubscribe}.`,
    "",
    "Raw figures: `bench/results/fan-out.json`.",
  ].join("\n");
}
