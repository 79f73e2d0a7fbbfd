import { afterEach, expect, test } from "vitest";
import { describeEachDatabase, openTestDatabase } from "../testing/database.js";
import { startTestApp, type TestApp } from "../testing/app.js";
import { DeepRuns, RunEvents, Runs, ServerInfo } from "../testing/operations.js";

const codeOf = (result: { errors: { extensions?: Record<string, unknown> }[] }) => result.errors[0]?.extensions?.["code"];

describeEachDatabase("the HTTP server", (suite) => {
  let api: TestApp | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  test("GET /healthz answers 200 with the database mode when the database answers", async () => {
    api = await startTestApp(suite.db());
    const response = await fetch(api.app.url.replace("/graphql", "/healthz"));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ok", database: { status: "ok", mode: suite.mode } });
  });

  test("a body over WEFT_MAX_BODY_BYTES is refused with 413 PAYLOAD_TOO_LARGE; bad JSON with 400 BAD_REQUEST", async () => {
    api = await startTestApp(suite.db(), { env: { WEFT_MAX_BODY_BYTES: "2048" } });
    const big = await api.admin.post(JSON.stringify({ query: `{ serverInfo { version } }`, variables: { pad: "x".repeat(3000) } }));
    expect(big.status).toBe(413);
    expect(big.json).toMatchObject({ errors: [{ extensions: { code: "PAYLOAD_TOO_LARGE", maxBodyBytes: 2048 } }] });
    const broken = await api.admin.post("{ not json");
    expect(broken.status).toBe(400);
    expect(broken.json).toMatchObject({ errors: [{ extensions: { code: "BAD_REQUEST" } }] });

    // Over WebSocket the same limit applies per message: the server closes the socket with 1009.
    const ws = api.admin.ws({ lazy: false });
    const closed = new Promise<number>((resolve) => ws.on("closed", (event) => resolve((event as { code: number }).code)));
    api.admin.subscribe(ws, RunEvents, { runId: "x".repeat(3000), afterSeq: 0 });
    expect(await closed).toBe(1009);
    await ws.dispose();
  });

  test("a query deeper than WEFT_MAX_QUERY_DEPTH is refused with QUERY_TOO_DEEP, over HTTP and WebSocket", async () => {
    api = await startTestApp(suite.db(), { env: { WEFT_MAX_QUERY_DEPTH: "3" } });
    const deep = await api.admin.execute(DeepRuns, { first: 1 });
    expect([deep.status, codeOf(deep)]).toEqual([400, "QUERY_TOO_DEEP"]);
    expect(deep.data).toBeNull();
    expect((await api.admin.execute(ServerInfo)).errors).toEqual([]);
    const introspection = await api.admin.execute(`{ __schema { types { name fields { name type { name ofType { name ofType { name } } } } } } }`);
    expect(introspection.errors).toEqual([]);

    const shallow = await startTestApp(suite.db(), { env: { WEFT_MAX_QUERY_DEPTH: "1" } });
    const ws = shallow.admin.ws();
    const stream = shallow.admin.subscribe(ws, RunEvents, { runId: "any", afterSeq: 0 });
    await stream.ended;
    await ws.dispose();
    expect(JSON.stringify(stream.failure)).toContain("QUERY_TOO_DEEP");
    await shallow.close();
  });

  test("a query costing more than WEFT_MAX_QUERY_COMPLEXITY is refused with QUERY_TOO_COMPLEX; page size counts", async () => {
    api = await startTestApp(suite.db(), { env: { WEFT_MAX_QUERY_COMPLEXITY: "200" } });
    expect((await api.admin.execute(DeepRuns, { first: 2 })).errors).toEqual([]);
    const costly = await api.admin.execute(DeepRuns, { first: 100 });
    expect([costly.status, codeOf(costly)]).toEqual([400, "QUERY_TOO_COMPLEX"]);
    expect(costly.errors[0]?.extensions).toMatchObject({ maxComplexity: 200 });
  });

  test("a persisted query with a bogus hash or an unknown version is a BAD_REQUEST, not an internal error", async () => {
    api = await startTestApp(suite.db());
    const query = "{ serverInfo { version } }";
    for (const persistedQuery of [{ version: 1, sha256Hash: "bogus" }, { version: 2, sha256Hash: "bogus" }]) {
      const response = await api.admin.post(JSON.stringify({ query, extensions: { persistedQuery } }));
      expect([response.status, (response.json as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code]).toEqual([400, "BAD_REQUEST"]);
    }
    const unknown = await api.admin.post(JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: "0".repeat(64) } } }));
    expect((unknown.json as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe("PERSISTED_QUERY_NOT_FOUND");
  });

  test("GraphQL validation errors reach the client as they are, with the request id", async () => {
    api = await startTestApp(suite.db());
    const result = await api.admin.execute(`{ serverInfo { noSuchField } }`);
    expect(codeOf(result)).toBe("GRAPHQL_VALIDATION_FAILED");
    expect(result.errors[0]?.message).toContain("noSuchField");
    expect(result.errors[0]?.extensions?.["requestId"]).toBe(result.headers.get("x-request-id"));
  });
});

test("an unexpected failure inside a resolver is masked for the client and logged with its stack and request id", async () => {
  const db = await openTestDatabase("embedded");
  const api = await startTestApp(db, { captureLogs: true, env: { WEFT_AUTH: "disabled" } });
  try {
    await db.close();
    const result = await api.anonymous.execute(Runs, {}, { "x-request-id": "trace-42" });
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toEqual({
      message: expect.stringContaining("Internal server error"),
      extensions: { code: "INTERNAL_SERVER_ERROR", requestId: "trace-42" },
    });
    const logged = api.logs.find((line) => line["requestId"] === "trace-42" && line["level"] === 50);
    expect(logged?.["err"]).toMatchObject({ stack: expect.stringContaining("\n    at ") });

    const ws = api.anonymous.ws();
    const stream = api.anonymous.subscribe(ws, RunEvents, { runId: "00000000-0000-0000-0000-000000000000", afterSeq: 0 });
    await stream.ended;
    await ws.dispose();
    const reported = [...stream.errors, ...(Array.isArray(stream.failure) ? stream.failure : [])] as { message: string; extensions?: Record<string, unknown> }[];
    expect(reported.map((error) => error.extensions?.["code"])).toEqual(["INTERNAL_SERVER_ERROR"]);
    expect(reported[0]!.message).toContain("Internal server error");

    const health = await fetch(api.app.url.replace("/graphql", "/healthz"));
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: "unavailable", database: { status: "unavailable" } });
  } finally {
    await api.close();
  }
});

test("browsers may call from CORS_ORIGINS and loopback origins only, over HTTP and WebSocket", async () => {
  const db = await openTestDatabase("embedded");
  const api = await startTestApp(db, { env: { CORS_ORIGINS: "https://dash.example.com" } });
  try {
    const preflight = (origin: string) =>
      fetch(api.app.url, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST" } });
    expect((await preflight("https://dash.example.com")).headers.get("access-control-allow-origin")).toBe("https://dash.example.com");
    expect((await preflight("http://localhost:3000")).headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
    expect((await preflight("https://evil.example.net")).headers.get("access-control-allow-origin")).toBeNull();

    const { default: WebSocket } = await import("ws");
    const opened = (origin: string) =>
      new Promise<boolean>((resolve) => {
        const socket = new WebSocket(api.app.wsUrl, "graphql-transport-ws", { origin });
        socket.on("open", () => {
          socket.close();
          resolve(true);
        });
        socket.on("error", () => resolve(false));
      });
    expect(await opened("https://dash.example.com")).toBe(true);
    expect(await opened("https://evil.example.net")).toBe(false);
  } finally {
    await api.close();
    await db.close();
  }
});
