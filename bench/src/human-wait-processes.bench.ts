import { randomBytes } from "node:crypto";
import { acquirePostgres, openTestDatabase, releasePostgres, startApiProcess, startRedisServer } from "@weft/api/testing/services";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { APPROVAL, importWorkflow, LATENCY_SAMPLES, LATENCY_WARMUP, latency, latencyRow, startRun, type Request } from "./human-task-latency.js";
import { machineInfo, machineLine } from "./machine-info.js";
import { writeDocSection, writeResult } from "./results-writer.js";

/**
 * Completing a task → the next node's NODE_STARTED across processes (issue 25): an API process
 * (`main.ts --role api`) takes completeHumanTask, a worker process (`--role worker`) continues the run,
 * and the event comes back through Redis to a WebSocket client of the API process; PostgreSQL. Timed
 * from sending the mutation to the event's arrival (human-task-latency.ts), runs one after another.
 * Target: p50 ≤ 20 ms, p99 ≤ 100 ms.
 */
export async function run(): Promise<unknown> {
  const [redis] = await Promise.all([startRedisServer(), acquirePostgres()]);
  const database = await openTestDatabase("server");
  const adminKey = `weft_bench_${randomBytes(24).toString("base64url")}`;
  const env = { DATABASE_URL: database.location, REDIS_URL: redis.url, WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE: "0", WEFT_RATE_LIMIT_RUNS_PER_MINUTE: "0", WEFT_MAX_WS_CONNECTIONS_PER_CALLER: "0" };
  const [api, worker] = await Promise.all([startApiProcess("api", env, adminKey), startApiProcess("worker", env, adminKey)]);
  try {
    const request: Request = (query, variables) => api.admin.request(query, variables ?? {});
    const approvalId = await importWorkflow(request, APPROVAL);
    const client = createClient({ url: api.admin.wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: { authorization: `Bearer ${adminKey}` } });
    const runIds: string[] = [];
    for (let index = 0; index < LATENCY_SAMPLES + LATENCY_WARMUP; index += 1) runIds.push(await startRun(request, approvalId));
    const figures = await latency(client, request, runIds);
    await client.dispose();
    const machine = machineInfo();
    const result = { machine, database: "PostgreSQL 15 (local)", redis: "Redis 7.0 (local)", completion: figures, targets: { p50Ms: 20, p99Ms: 100 } };
    console.log(JSON.stringify(result, null, 2));
    writeResult("human-wait-processes", result);
    writeDocSection(
      "human-wait-processes",
      `## People in the loop across processes: completing a task (human-wait-processes)

\`bench/src/human-wait-processes.bench.ts\`: an API process takes \`completeHumanTask\`, a worker process continues the run, the
event returns through Redis to a WebSocket client of the API process (PostgreSQL 15 and Redis 7 on this machine; every process
shares its cores). Timed from sending the mutation (its HTTP round trip included) to the arrival of the next node's
\`NODE_STARTED\`; ${LATENCY_SAMPLES} runs one after another after ${LATENCY_WARMUP} of warm-up.

| path | p50 | p99 | max | samples | target met (p50 ≤ 20 ms, p99 ≤ 100 ms) |
|---|---:|---:|---:|---:|---|
${latencyRow("API process → worker process → Redis → client", figures)}

Machine: ${machineLine(machine)} (load average ${machine.loadAverage} at the end). The machine is shared with other engineers' builds and tests:
figures move with its load. Raw figures: \`bench/results/human-wait-processes.json\`.`,
    );
    return result;
  } finally {
    await Promise.all([api.kill("SIGTERM"), worker.kill("SIGTERM")]);
    await database.close();
    await releasePostgres();
    await redis.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
