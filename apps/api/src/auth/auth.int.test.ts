import { createHash } from "node:crypto";
import { afterEach, expect, test } from "vitest";
import { EnvError, loadEnv } from "../env.js";
import { describeEachDatabase } from "../testing/database.js";
import { seedWorkflow, startTestApp, type TestApp } from "../testing/app.js";
import type { TestClient } from "../testing/graphql-client.js";
import { AddNode, ApiKeys, CreateApiKey, RevokeApiKey, RunEvents, Runs, RunWorkflow, ServerInfo } from "../testing/operations.js";
import { arrows } from "../testing/workflows.js";

const codeOf = (result: { errors: { extensions?: Record<string, unknown> }[] }) => result.errors[0]?.extensions?.["code"];

/** Opens a graphql-ws connection and reports how the server closed it (or "open"). */
function connectionOutcome(client: TestClient): Promise<number | "open"> {
  return new Promise((resolve) => {
    const ws = client.ws({ lazy: false });
    const unsubscribe = ws.on("connected", () => {
      resolve("open");
      void ws.dispose();
    });
    ws.on("closed", (event) => {
      unsubscribe();
      resolve((event as { code: number }).code);
    });
  });
}

describeEachDatabase("API keys and scopes", (suite) => {
  let api: TestApp | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  async function keyWith(scopes: string[]): Promise<TestClient> {
    const { createApiKey } = await api!.admin.request(CreateApiKey, { input: { name: scopes.join("+"), scopes } });
    return api!.admin.withKey(createApiKey.key!);
  }

  test("without a key public fields answer and everything else is UNAUTHENTICATED", async () => {
    api = await startTestApp(suite.db());
    const info = await api.anonymous.request(ServerInfo);
    expect(info.serverInfo.authRequired).toBe(true);
    const runs = await api.anonymous.execute(Runs, {});
    expect(codeOf(runs)).toBe("UNAUTHENTICATED");
    expect(runs.data).toBeNull();
  });

  test("an unknown key or a malformed header is refused with 401 before anything runs", async () => {
    api = await startTestApp(suite.db());
    const unknown = await api.admin.withKey("weft_not-a-key-we-issued").execute(ServerInfo);
    expect([unknown.status, codeOf(unknown)]).toEqual([401, "UNAUTHENTICATED"]);
    const basic = await api.anonymous.execute(ServerInfo, undefined, { authorization: "Basic dXNlcjpwYXNz" });
    expect([basic.status, codeOf(basic)]).toEqual([401, "UNAUTHENTICATED"]);
  });

  test("createApiKey shows the key once and stores only its SHA-256 hash and a prefix", async () => {
    api = await startTestApp(suite.db());
    const { createApiKey } = await api.admin.request(CreateApiKey, { input: { name: "ci", scopes: ["read", "run"] } });
    const key = createApiKey.key!;
    expect(key).toMatch(/^weft_[A-Za-z0-9_-]{43}$/);
    expect(createApiKey.apiKey).toMatchObject({ name: "ci", scopes: ["read", "run"], prefix: key.slice(0, 12) });
    const row = await suite.db().prisma.apiKey.findUniqueOrThrow({ where: { id: createApiKey.apiKey!.id } });
    expect(row.hash).toBe(createHash("sha256").update(key).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(key);
    const listed = await api.admin.request(ApiKeys, { includeRevoked: true });
    expect(listed.apiKeys.map((entry) => entry.name)).toContain("ci");
    expect(JSON.stringify(listed)).not.toContain(key);
  });

  test("each scope opens only its operations; others are FORBIDDEN", async () => {
    api = await startTestApp(suite.db());
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const reader = await keyWith(["read"]);
    const runner = await keyWith(["run"]);
    const writer = await keyWith(["write"]);

    expect((await reader.execute(Runs, {})).errors).toEqual([]);
    expect(codeOf(await reader.execute(RunWorkflow, { workflowId }))).toBe("FORBIDDEN");
    expect(codeOf(await reader.execute(AddNode, { workflowId, input: { type: "input" } }))).toBe("FORBIDDEN");
    expect(codeOf(await reader.execute(CreateApiKey, { input: { name: "x", scopes: ["admin"] } }))).toBe("FORBIDDEN");
    expect(codeOf(await runner.execute(Runs, {}))).toBe("FORBIDDEN");
    expect((await runner.request(RunWorkflow, { workflowId })).runWorkflow.errors).toEqual([]);
    expect(codeOf(await writer.execute(CreateApiKey, { input: { name: "x", scopes: ["admin"] } }))).toBe("FORBIDDEN");
    expect(await suite.db().prisma.apiKey.count()).toBe(4);
  });

  test("a revoked key is refused at once over HTTP and WebSocket; revoking again is a CONFLICT", async () => {
    api = await startTestApp(suite.db());
    const { createApiKey } = await api.admin.request(CreateApiKey, { input: { name: "temp", scopes: ["read"] } });
    const client = api.admin.withKey(createApiKey.key!);
    expect((await client.execute(Runs, {})).errors).toEqual([]);
    expect(await connectionOutcome(client)).toBe("open");

    const { revokeApiKey } = await api.admin.request(RevokeApiKey, { id: createApiKey.apiKey!.id });
    expect(revokeApiKey.apiKey!.revokedAt).not.toBeNull();
    const after = await client.execute(Runs, {});
    expect([after.status, codeOf(after)]).toEqual([401, "UNAUTHENTICATED"]);
    expect(await connectionOutcome(client)).toBe(4403);
    const again = await api.admin.request(RevokeApiKey, { id: createApiKey.apiKey!.id });
    expect(again.revokeApiKey.errors.map((error) => error.code)).toEqual(["CONFLICT"]);
    const missing = await api.admin.request(RevokeApiKey, { id: "00000000-0000-0000-0000-000000000000" });
    expect(missing.revokeApiKey.errors.map((error) => error.code)).toEqual(["NOT_FOUND"]);
  });

  test("a WebSocket without a key, or with a key lacking read, cannot follow runs", async () => {
    api = await startTestApp(suite.db());
    expect(await connectionOutcome(api.anonymous)).toBe(4403);
    const runner = await keyWith(["run"]);
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const { runWorkflow } = await runner.request(RunWorkflow, { workflowId });
    const ws = runner.ws();
    const stream = runner.subscribe(ws, RunEvents, { runId: runWorkflow.run!.id, afterSeq: 0 });
    await stream.ended;
    await ws.dispose();
    expect(stream.items).toEqual([]);
    expect(JSON.stringify(stream.failure ?? stream.errors)).toContain("FORBIDDEN");
  });

  test("bad createApiKey input is refused with codes and paths and stores nothing", async () => {
    api = await startTestApp(suite.db());
    const before = await suite.db().prisma.apiKey.count();
    const cases: [{ name: string; scopes: string[] }, string, string][] = [
      [{ name: " ", scopes: ["read"] }, "VALIDATION_FAILED", "input.name"],
      [{ name: "n".repeat(101), scopes: ["read"] }, "LIMIT_EXCEEDED", "input.name"],
      [{ name: "x", scopes: [] }, "VALIDATION_FAILED", "input.scopes"],
      [{ name: "x", scopes: ["read", "root"] }, "VALIDATION_FAILED", "input.scopes.1"],
      [{ name: "x", scopes: Array.from({ length: 11 }, () => "read") }, "LIMIT_EXCEEDED", "input.scopes"],
    ];
    for (const [input, code, path] of cases) {
      const { createApiKey } = await api.admin.request(CreateApiKey, { input });
      expect(createApiKey.key).toBeNull();
      expect(createApiKey.errors.map((error) => [error.code, error.path?.join(".")])).toContainEqual([code, path]);
    }
    expect(await suite.db().prisma.apiKey.count()).toBe(before);
  });

  test("WEFT_ADMIN_KEY is stored once, however often the server starts", async () => {
    api = await startTestApp(suite.db());
    const { adminKey } = api;
    await api.close();
    api = await startTestApp(suite.db(), { env: { WEFT_ADMIN_KEY: adminKey } });
    expect(await suite.db().prisma.apiKey.count()).toBe(1);
    expect((await api.admin.execute(Runs, {})).errors).toEqual([]);
  });

  test("with WEFT_AUTH=disabled every caller is admin, and a warning is logged", async () => {
    api = await startTestApp(suite.db(), { env: { WEFT_AUTH: "disabled" }, captureLogs: true });
    expect((await api.anonymous.request(ServerInfo)).serverInfo.authRequired).toBe(false);
    expect((await api.anonymous.execute(Runs, {})).errors).toEqual([]);
    expect(await connectionOutcome(api.anonymous)).toBe("open");
    expect(api.logs.some((line) => line["level"] === 40 && String(line["msg"]).includes("AUTHENTICATION IS DISABLED"))).toBe(true);
  });
});

test("WEFT_AUTH=disabled is refused unless the server is bound to a loopback address", () => {
  for (const HOST of ["0.0.0.0", "192.168.1.10", "::", "example.com"]) {
    expect(() => loadEnv({ WEFT_AUTH: "disabled", HOST }, {})).toThrow(EnvError);
  }
  for (const HOST of ["127.0.0.1", "localhost", "::1"]) {
    expect(loadEnv({ WEFT_AUTH: "disabled", HOST }, {}).WEFT_AUTH).toBe("disabled");
  }
});

