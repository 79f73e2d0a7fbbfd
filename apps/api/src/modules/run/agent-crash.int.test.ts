import { randomBytes } from "node:crypto";
import { startRedisServer, type RedisServer } from "@weft/test-services";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startApiProcess, type ApiProcess } from "../../testing/api-process.js";
import { acquirePostgres, openTestDatabase, releasePostgres, type TestDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";
import { RunWorkflow } from "../../testing/operations.js";

/**
 * SPEC-V3 §3: after a crash, an agent's tool calls already completed are replayed from the events and
 * never repeated. One API and two worker processes on PostgreSQL and Redis; the worker executing an
 * agent is killed (kill -9) while the model works on the agent's third step, and the other worker
 * finishes the run.
 */
const PROCESS_TEST_MS = 240_000;
/** Each model step of the agent takes this long, so the kill lands inside step 3. */
const STEP_MS = 2_000;

const ImportWorkflow = graphql(`
  mutation CrashImport($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }
`);

const Publish = graphql(`
  mutation CrashPublish($id: ID!) { publishWorkflow(id: $id) { version { number } errors { code message } } }
`);

/** city ─► shout (template) ─► loud */
const SHOUT = {
  format: "weft.workflow/v2",
  name: "Shout",
  nodes: [
    { id: "city", type: "input", content: "" },
    { id: "shout", type: "template", template: "{input}!" },
    { id: "loud", type: "output" },
  ],
  edges: [
    { id: "e1", source: "city", target: "shout" },
    { id: "e2", source: "shout", target: "loud" },
  ],
};

const call = (city: string) => ({ name: "Shout", arguments: JSON.stringify({ city }) });

/** q ─► tour (agent: four steps, a call in each of the first three) ─► out */
const tourOf = (workflowId: string) => ({
  format: "weft.workflow/v2",
  name: "Tour",
  nodes: [
    { id: "q", type: "input", content: "Shout three cities." },
    {
      id: "tour",
      type: "agent",
      provider: "offline",
      model: "scripted",
      tools: [{ type: "workflow", workflowId }],
      params: {
        delayMs: STEP_MS,
        replies: [{ toolCalls: [call("Seoul"), call("Busan")] }, { toolCalls: [call("Gwangju")] }, { toolCalls: [call("Daegu")] }, "Shouted four."],
      },
    },
    { id: "out", type: "output" },
  ],
  edges: [
    { id: "e1", source: "q", target: "tour" },
    { id: "e2", source: "tour", target: "out" },
  ],
});

describe("an agent's worker killed in the middle of its third step", () => {
  let redis: RedisServer;
  let database: TestDatabase;
  const adminKey = `weft_test_${randomBytes(24).toString("base64url")}`;
  let api: ApiProcess;
  let workers: ApiProcess[] = [];

  beforeAll(async () => {
    [redis] = await Promise.all([startRedisServer(), acquirePostgres()]);
    database = await openTestDatabase("server");
    const env = { DATABASE_URL: database.location, REDIS_URL: redis.url, WEFT_QUEUE_LOCK_MS: "1000", WEFT_RUN_MAX_ATTEMPTS: "5" };
    [api, ...workers] = await Promise.all([startApiProcess("api", env, adminKey), startApiProcess("worker", env, adminKey), startApiProcess("worker", env, adminKey)]);
  }, PROCESS_TEST_MS);

  afterAll(async () => {
    await Promise.all([api, ...workers].filter(Boolean).map((process) => process.kill("SIGKILL")));
    await database?.close();
    await releasePostgres();
    await redis?.stop();
  }, 60_000);

  const waitFor = async <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> => {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const eventsOf = (runId: string) => database.prisma.runEvent.findMany({ where: { runId }, orderBy: { seq: "asc" } });

  test("resumes on the other worker, replays steps 1 and 2 and their three calls without running them again, and completes", async () => {
    const shout = await api.admin.request(ImportWorkflow, { document: SHOUT });
    const shoutId = shout.importWorkflow.workflow!.id;
    expect((await api.admin.request(Publish, { id: shoutId })).publishWorkflow.errors).toEqual([]);
    const tour = await api.admin.request(ImportWorkflow, { document: tourOf(shoutId) });
    expect(tour.importWorkflow.errors).toEqual([]);
    const runId = (await api.admin.request(RunWorkflow, { workflowId: tour.importWorkflow.workflow!.id })).runWorkflow.run!.id;

    // Step 2's call has its result stored: the model is now working on step 3 (STEP_MS long).
    const stored = (events: { type: string; payload: unknown }[], type: string, field: string, value: unknown) =>
      events.some((event) => event.type === type && (event.payload as Record<string, unknown>)[field] === value);
    await waitFor(() => eventsOf(runId), (events) => stored(events, "NODE_COMPLETED", "invocation", "tour@2.1"), "step 2's call to complete");
    const row = await database.prisma.run.findUniqueOrThrow({ where: { id: runId }, select: { claimedBy: true } });
    const owner = workers.find((worker) => worker.pid === Number(row.claimedBy?.split(":")[1]));
    if (!owner) throw new Error(`run ${runId} is claimed by ${row.claimedBy}, not one of the workers`);
    await owner.kill("SIGKILL");

    const run = await waitFor(
      () => database.prisma.run.findUniqueOrThrow({ where: { id: runId }, include: { events: { orderBy: { seq: "asc" } } } }),
      (found) => found.status !== "RUNNING" && found.status !== "QUEUED",
      "the run to end on the other worker",
    );
    const context = run.events.map((event) => `${event.seq} ${event.type} ${event.nodeKey ?? ""} ${JSON.stringify((event.payload as Record<string, unknown>)["invocation"] ?? "")}`).join(", ");
    expect(run.status, context).toBe("COMPLETED");
    expect(run.result).toBe("Shouted four.");
    const resumed = run.events.findIndex((event) => event.type === "RUN_RESUMED");
    expect(resumed, context).toBeGreaterThan(0);
    const payload = (event: { payload: unknown }) => event.payload as Record<string, unknown>;
    const before = run.events.slice(0, resumed);
    const after = run.events.slice(resumed);
    // The kill came inside step 3: steps 1 and 2 were recorded, step 3 was not.
    expect(before.filter((event) => event.type === "AGENT_STEP").map((event) => payload(event)["step"]), context).toEqual([1, 2]);
    // After the resumption nothing of steps 1 and 2 happens again: no step asked again, no call started again.
    expect(after.filter((event) => event.type === "AGENT_STEP").map((event) => payload(event)["step"]), context).toEqual([3, 4]);
    const callsAfter = after.filter((event) => event.type === "TOOL_CALLED" || event.type === "NODE_STARTED").map((event) => payload(event)["invocation"]);
    expect(callsAfter.filter((invocation) => /^tour@[12]\./.test(String(invocation))), context).toEqual([]);
    // Every call ran exactly once over the whole run.
    const called = run.events.filter((event) => event.type === "TOOL_CALLED").map((event) => payload(event)["invocation"]);
    expect([...called].sort(), context).toEqual(["tour@1.1", "tour@1.2", "tour@2.1", "tour@3.1"]);
    const completed = run.events.filter((event) => event.type === "NODE_COMPLETED" && String(payload(event)["invocation"]).startsWith("tour@")).map((event) => payload(event)["invocation"]);
    expect([...completed].sort(), context).toEqual(["tour@1.1", "tour@1.2", "tour@2.1", "tour@3.1"]);
  }, PROCESS_TEST_MS);
});
