import type { Client } from "graphql-ws";
import { afterEach, expect, test } from "vitest";
import { describeEachDatabase } from "../testing/database.js";
import { seedWorkflow, startTestApp, type TestApp } from "../testing/app.js";
import type { TestClient } from "../testing/graphql-client.js";
import { CreateApiKey, Runs, RunStatusChanged, RunWorkflow, ServerInfo } from "../testing/operations.js";
import { arrows } from "../testing/workflows.js";
import { InProcessEventBus } from "../pubsub.js";
import { TOO_MANY_CONNECTIONS_CLOSE_CODE } from "./rate-limits.js";

const codeOf = (result: { errors: { extensions?: Record<string, unknown> }[] }) => result.errors[0]?.extensions?.["code"];

/** An eager graphql-ws connection; resolves "open" once acknowledged, or the close code the server sent. */
async function connect(client: TestClient): Promise<{ ws: Client; outcome: number | "open" }> {
  const ws = client.ws({ lazy: false });
  const outcome = await new Promise<number | "open">((resolve) => {
    ws.on("connected", () => resolve("open"));
    ws.on("closed", (event) => resolve((event as { code: number }).code));
  });
  return { ws, outcome };
}

/** Yields to the event loop until the condition holds; bounded so a bug fails the test instead of hanging it. */
async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 2000 && !condition(); turn += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

describeEachDatabase(
  "rate limits",
  (suite) => {
    let api: TestApp | undefined;
    const sockets: Client[] = [];
    afterEach(async () => {
      await Promise.all(sockets.splice(0).map((ws) => ws.dispose()));
      await api?.close();
      api = undefined;
    });

    async function keyWith(name: string, scopes: string[]): Promise<TestClient> {
      const { createApiKey } = await api!.admin.request(CreateApiKey, { input: { name, scopes } });
      return api!.admin.withKey(createApiKey.key!);
    }

    test("an HTTP request over the caller's budget gets 429, Retry-After and RATE_LIMITED; another key is unaffected", async () => {
      api = await startTestApp(suite.db(), { env: { WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE: "3" } });
      const first = await keyWith("first", ["read"]);
      const second = await keyWith("second", ["read"]);
      for (let request = 0; request < 3; request += 1) expect((await first.execute(Runs, {})).status).toBe(200);
      const refused = await first.execute(Runs, {});
      expect([refused.status, codeOf(refused), refused.data]).toEqual([429, "RATE_LIMITED", null]);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
      const extensions = refused.errors[0]!.extensions!;
      expect(extensions["retryAfterMs"]).toBeGreaterThan(0);
      expect(extensions["retryAfterMs"]).toBeLessThanOrEqual(60_000);
      expect(extensions["requestId"]).toBe(refused.headers.get("x-request-id"));
      const other = await second.execute(Runs, {});
      expect([other.status, other.errors]).toEqual([200, []]);
    });

    test("without a key the budget is the client address's, bad keys spend it too, and /healthz is never limited", async () => {
      api = await startTestApp(suite.db(), { env: { WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE: "2" } });
      expect((await api.anonymous.execute(ServerInfo)).status).toBe(200);
      const badKey = await api.admin.withKey("weft_not-a-key-we-issued").execute(ServerInfo);
      expect([badKey.status, codeOf(badKey)]).toEqual([401, "UNAUTHENTICATED"]);
      const anonymous = await api.anonymous.execute(ServerInfo);
      expect([anonymous.status, codeOf(anonymous)]).toEqual([429, "RATE_LIMITED"]);
      const guess = await api.admin.withKey("weft_another-guess").execute(ServerInfo);
      expect([guess.status, codeOf(guess)]).toEqual([429, "RATE_LIMITED"]);
      const health = await Promise.all(Array.from({ length: 5 }, () => fetch(api!.app.url.replace(/\/graphql$/, "/healthz"))));
      expect(health.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
      expect((await api.admin.execute(Runs, {})).status).toBe(200);
    });

    test("runWorkflow over the runs budget is the user error RATE_LIMITED and stores no run; a budget of 0 for requests limits nothing", async () => {
      // in ──▶ g1 (echo) ──▶ out, three times: one workflow per run, so no run waits for another
      api = await startTestApp(suite.db(), { env: { WEFT_RATE_LIMIT_RUNS_PER_MINUTE: "2", WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE: "0" } });
      const workflows = [];
      for (let index = 0; index < 3; index += 1) workflows.push(await seedWorkflow(suite.db(), arrows(["in->g1->out"])));
      const [w1, w2, w3] = workflows as [string, string, string];
      for (const workflowId of [w1, w2]) expect((await api.admin.request(RunWorkflow, { workflowId })).runWorkflow.errors).toEqual([]);
      const before = await suite.db().prisma.run.count();
      const { runWorkflow } = await api.admin.request(RunWorkflow, { workflowId: w3 });
      expect(runWorkflow.run).toBeNull();
      expect(runWorkflow.errors.map((error) => error.code)).toEqual(["RATE_LIMITED"]);
      expect(await suite.db().prisma.run.count()).toBe(before);
      expect(await suite.db().prisma.run.count({ where: { workflowId: w3 } })).toBe(0);
      const runner = await keyWith("runner", ["run"]);
      expect((await runner.request(RunWorkflow, { workflowId: w3 })).runWorkflow.errors).toEqual([]);
      expect(await suite.db().prisma.run.count()).toBe(before + 1);
      for (let request = 0; request < 20; request += 1) expect((await api.admin.execute(Runs, {})).status).toBe(200);
    });

    test("a subscribe over the budget fails alone with RATE_LIMITED; the connection and its other subscriptions go on", async () => {
      api = await startTestApp(suite.db(), { env: { WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE: "2" } });
      const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
      const watcher = await keyWith("watcher", ["read"]);
      const { ws, outcome } = await connect(watcher);
      sockets.push(ws);
      expect(outcome).toBe("open");
      let closed = false;
      ws.on("closed", () => (closed = true));
      // graphql-ws does not acknowledge a subscription: wait until both are listening on the bus
      // (besides the server's own listeners, such as the one for revoked keys).
      const bus = api.app.bus;
      if (!(bus instanceof InProcessEventBus)) throw new Error("the test app uses the in-process event bus");
      const before = bus.subscriberCount();
      const kept = [watcher.subscribe(ws, RunStatusChanged, { workflowId }), watcher.subscribe(ws, RunStatusChanged, { workflowId })];
      await until(() => bus.subscriberCount() === before + 2);
      const refused = watcher.subscribe(ws, RunStatusChanged, { workflowId });
      await refused.ended;
      expect(JSON.stringify(refused.failure)).toContain("RATE_LIMITED");
      expect(JSON.stringify(refused.failure)).toContain("retryAfterMs");
      const { runWorkflow } = await api.admin.request(RunWorkflow, { workflowId });
      for (const stream of kept) await stream.until((items) => items.some((item) => item.runStatusChanged.runId === runWorkflow.run!.id));
      expect(closed).toBe(false);
    });

    test(`connections over the per-caller cap are closed with ${TOO_MANY_CONNECTIONS_CLOSE_CODE}; closing one frees a place`, async () => {
      api = await startTestApp(suite.db(), { env: { WEFT_MAX_WS_CONNECTIONS_PER_CALLER: "2" } });
      const watcher = await keyWith("watcher", ["read"]);
      const opened = [await connect(watcher), await connect(watcher), await connect(watcher)];
      sockets.push(...opened.map((connection) => connection.ws));
      expect(opened.map((connection) => connection.outcome)).toEqual(["open", "open", TOO_MANY_CONNECTIONS_CLOSE_CODE]);
      const other = await connect(api.admin);
      sockets.push(other.ws);
      expect(other.outcome).toBe("open");
      await opened[0]!.ws.dispose();
      // The server frees the place when it sees the close, a moment after dispose returns.
      let again = await connect(watcher);
      for (let attempt = 0; attempt < 100 && again.outcome !== "open"; attempt += 1) {
        sockets.push(again.ws);
        await new Promise((resolve) => setTimeout(resolve, 10));
        again = await connect(watcher);
      }
      sockets.push(again.ws);
      expect(again.outcome).toBe("open");
    });

    test("a connection cap of 0 allows any number of connections", async () => {
      api = await startTestApp(suite.db(), { env: { WEFT_MAX_WS_CONNECTIONS_PER_CALLER: "0" } });
      const opened = await Promise.all(Array.from({ length: 25 }, () => connect(api!.admin)));
      sockets.push(...opened.map((connection) => connection.ws));
      expect(opened.every((connection) => connection.outcome === "open")).toBe(true);
    });
  },
  { modes: ["embedded"] },
);
