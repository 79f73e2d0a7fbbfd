import { request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import WebSocket from "ws";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openTestDatabase, type TestDatabase } from "../testing/database.js";
import { startTestApp, type TestApp } from "../testing/app.js";

/**
 * A DNS-rebinding page (rebind.example resolving to 127.0.0.1) reaches a loopback API with its own name
 * in Host and Origin. With WEFT_AUTH=disabled (everyone is admin) those requests must be refused.
 */

let db: TestDatabase;
let local: TestApp;
let port: number;
beforeAll(async () => {
  db = await openTestDatabase("embedded");
  local = await startTestApp(db, { env: { WEFT_AUTH: "disabled", CORS_ORIGINS: "https://dash.example.com" } });
  port = new URL(local.app.url).port as unknown as number;
}, 60_000);
afterAll(async () => {
  await local?.close();
  await db?.close();
});

const MINT_KEY = JSON.stringify({ query: `mutation { createApiKey(input: { name: "stolen", scopes: ["admin"] }) { key errors { code } } }` });

/** A raw HTTP request with the headers a browser on another name would send. */
function post(target: string, headers: Record<string, string>, body = MINT_KEY): Promise<{ status: number; json: { errors?: { extensions?: { code?: string } }[]; data?: unknown } }> {
  return new Promise((resolve, reject) => {
    const url = new URL(target);
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { "content-type": "application/json", ...headers } },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as never }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function upgrade(headers: Record<string, string>, origin?: string): Promise<number | "open"> {
  return new Promise((resolve) => {
    const socket = new WebSocket(local.app.wsUrl, "graphql-transport-ws", { headers, ...(origin ? { origin } : {}) });
    socket.on("open", () => {
      socket.close();
      resolve("open");
    });
    socket.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    socket.on("error", () => undefined);
  });
}

const codeOf = (json: { errors?: { extensions?: { code?: string } }[] }) => json.errors?.[0]?.extensions?.code;

test("with WEFT_AUTH=disabled a request naming another host is refused with HOST_NOT_ALLOWED and mints no key", async () => {
  const before = await db.prisma.apiKey.count();
  for (const host of [`rebind.example:${port}`, `rebind.example`, `127.0.0.1.nip.io:${port}`, `localhost.rebind.example:${port}`]) {
    const refused = await post(local.app.url, { host, origin: `http://${host}` });
    expect([host, refused.status, codeOf(refused.json)]).toEqual([host, 403, "HOST_NOT_ALLOWED"]);
  }
  expect(await db.prisma.apiKey.count()).toBe(before);
});

test("with WEFT_AUTH=disabled a browser origin that is neither the API itself nor allowed is refused with ORIGIN_NOT_ALLOWED", async () => {
  const before = await db.prisma.apiKey.count();
  for (const origin of [`http://rebind.example:${port}`, "null", "https://evil.example.net"]) {
    const refused = await post(local.app.url, { host: `127.0.0.1:${port}`, origin });
    expect([origin, refused.status, codeOf(refused.json)]).toEqual([origin, 403, "ORIGIN_NOT_ALLOWED"]);
  }
  expect(await db.prisma.apiKey.count()).toBe(before);
});

test("with WEFT_AUTH=disabled loopback hosts, same-origin pages, the admin UI's origin and tools without an Origin are served", async () => {
  const query = JSON.stringify({ query: "{ serverInfo { authRequired } }" });
  const accepted: [Record<string, string>, number][] = [];
  for (const headers of <Record<string, string>[]>[
    { host: `127.0.0.1:${port}` },
    { host: `localhost:${port}` },
    { host: `[::1]:${port}` },
    { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` },
    { host: `localhost:${port}`, origin: "http://localhost:3000" },
    { host: `127.0.0.1:${port}`, origin: "https://dash.example.com" },
  ]) {
    accepted.push([headers, (await post(local.app.url, headers, query)).status]);
  }
  expect(accepted.filter(([, status]) => status !== 200)).toEqual([]);
});

test("with WEFT_AUTH=disabled WebSocket upgrades are held to the same Host and Origin rules", async () => {
  expect(await upgrade({ host: `rebind.example:${port}` }, `http://rebind.example:${port}`)).toBe(403);
  expect(await upgrade({ host: `127.0.0.1:${port}` }, `http://rebind.example:${port}`)).not.toBe("open");
  expect(await upgrade({ host: `127.0.0.1:${port}` }, "http://localhost:3000")).toBe("open");
  expect(await upgrade({ host: `localhost:${port}` })).toBe("open");
});

test("with authentication on, the Host is not restricted: keys protect the API", async () => {
  const authed = await startTestApp(db);
  try {
    const response = await post(authed.app.url, { host: "api.example.com", authorization: `Bearer ${authed.adminKey}` }, JSON.stringify({ query: "{ serverInfo { authRequired } }" }));
    expect(response.status).toBe(200);
  } finally {
    await authed.close();
  }
});

test("with WEFT_AUTH=disabled (local mode) introspection needs no key", async () => {
  const response = await post(local.app.url, { host: `127.0.0.1:${port}` }, JSON.stringify({ query: `{ __schema { queryType { name } } }` }));
  expect([response.status, response.json.data]).toEqual([200, { __schema: { queryType: { name: "Query" } } }]);
});

test("with WEFT_AUTH=disabled the MCP server at /mcp answers loopback callers without a key and refuses another host", async () => {
  const mcpUrl = new URL("/mcp", local.app.url);
  const listTools = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
  const refused = await post(mcpUrl.toString(), { host: `rebind.example:${port}`, accept: "application/json, text/event-stream" }, listTools);
  expect([refused.status, codeOf(refused.json)]).toEqual([403, "HOST_NOT_ALLOWED"]);
  const client = new Client({ name: "local", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl));
  expect((await client.listTools()).tools).toEqual([]);
  await client.close();
});
