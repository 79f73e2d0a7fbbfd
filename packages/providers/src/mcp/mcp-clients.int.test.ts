import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpTestServer, type McpTestServer } from "../testing/mcp-test-server.js";
import { McpClients } from "./mcp-clients.js";
import type { McpServerConfig } from "./mcp-servers-config.js";

/** A loopback port nothing listens on: taken, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("McpClients against a real MCP server over streamable HTTP", () => {
  let server: McpTestServer;
  let clients: McpClients;
  const signal = new AbortController().signal;

  beforeAll(async () => {
    server = await startMcpTestServer([
      { name: "forecast", description: "The forecast of a city.", args: ["city"], answer: ({ city }) => `sunny in ${city}` },
      { name: "broken", description: "Always fails.", args: [], answer: () => Promise.reject(new Error("the weather station is down")) },
      { name: "whoami", description: "Repeats the credentials it was called with.", args: [], answer: (_args, { authorization }) => `you sent ${authorization}` },
    ]);
    clients = new McpClients(
      new Map([
        ["weather", { url: server.url, headers: { Authorization: "Bearer test-token" } }],
        ["gone", { url: `http://127.0.0.1:${await closedPort()}/mcp` }],
      ]),
      { timeoutMs: 30_000 },
    );
  });
  afterAll(async () => {
    await clients.close();
    await server.stop();
  });

  it("lists a server's tools with their descriptions and input schemas", async () => {
    const tools = await clients.listTools("weather", signal);
    expect(tools.map((tool) => [tool.name, tool.description])).toEqual([
      ["forecast", "The forecast of a city."],
      ["broken", "Always fails."],
      ["whoami", "Repeats the credentials it was called with."],
    ]);
    expect(tools[0]!.inputSchema).toMatchObject({ type: "object", properties: { city: { type: "string" } }, required: ["city"] });
  });

  it("calls a tool with the configured headers and returns its text; a tool's own failure is isError, not an exception", async () => {
    expect(await clients.callTool("weather", "forecast", { city: "Gwangju" }, signal)).toEqual({ isError: false, content: "sunny in Gwangju" });
    expect(server.calls.at(-1)).toEqual({ tool: "forecast", args: { city: "Gwangju" }, authorization: "Bearer test-token" });
    expect(await clients.callTool("weather", "broken", {}, signal)).toEqual({ isError: true, content: "the weather station is down" });
  });

  it("fills {secret.NAME} in a server's headers at each request, so a replaced secret is sent with no reconnect, and names a missing one", async () => {
    const stored: Record<string, string> = { MCP_TOKEN: "first-token-value" };
    const servers = new Map<string, McpServerConfig>([
      ["weather", { url: server.url, headers: { Authorization: "Bearer {secret.MCP_TOKEN}" } }],
      ["unset", { url: server.url, headers: { "X-Key": "{secret.NOPE}" } }],
    ]);
    const withSecret = new McpClients(servers, {
      timeoutMs: 30_000,
      readSecret: async (name) => stored[name] ?? null,
    });
    try {
      await withSecret.callTool("weather", "forecast", { city: "Busan" }, signal);
      expect(server.calls.at(-1)!.authorization).toBe("Bearer first-token-value");
      stored["MCP_TOKEN"] = "second-token-value";
      await withSecret.callTool("weather", "forecast", { city: "Daegu" }, signal);
      expect(server.calls.at(-1)!.authorization).toBe("Bearer second-token-value");
      await expect(withSecret.listTools("unset", signal)).rejects.toMatchObject({ code: "MCP_UNAVAILABLE", message: expect.stringContaining("no secret is named NOPE") });
    } finally {
      await withSecret.close();
    }
  });

  it("shows a secret a server repeats, in a refusal's text or in a tool's result, as [secret]", async () => {
    const token = "mcp-secret/token+value";
    const servers = new Map<string, McpServerConfig>([
      ["weather", { url: server.url, headers: { Authorization: "Bearer {secret.MCP_TOKEN}" } }],
      ["refusing", { url: server.refusedUrl, headers: { Authorization: "Bearer {secret.MCP_TOKEN}" } }],
    ]);
    const withSecret = new McpClients(servers, { timeoutMs: 30_000, readSecret: async () => token });
    try {
      expect(await withSecret.callTool("weather", "whoami", {}, signal)).toEqual({ isError: false, content: "you sent Bearer [secret]" });
      expect(server.calls.at(-1)!.authorization).toBe(`Bearer ${token}`);
      const refusal = await withSecret.listTools("refusing", signal).then(() => new Error("listed"), (error: unknown) => error as Error);
      expect(refusal).toMatchObject({ code: "MCP_UNAVAILABLE", message: expect.stringContaining("invalid credentials: Bearer [secret]") });
      expect(`${refusal.message}\n${refusal.stack}`).not.toContain(token);
    } finally {
      await withSecret.close();
    }
  });

  it("refuses a server that is not configured, and says a server that cannot be reached is unavailable", async () => {
    await expect(clients.listTools("nowhere", signal)).rejects.toMatchObject({ code: "MCP_SERVER_UNKNOWN" });
    await expect(clients.listTools("gone", signal)).rejects.toMatchObject({ code: "MCP_UNAVAILABLE" });
  });

  it("describes the servers without their headers", () => {
    expect(clients.servers()).toEqual([
      { name: "weather", transport: "http", target: server.url },
      { name: "gone", transport: "http", target: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/) },
    ]);
  });
});
