import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { BUILT_IN_NODE_TYPES, NodeTypeRegistry } from "@weft/engine";
import { afterEach, expect, test } from "vitest";
import type { AuthInfo } from "../../auth/auth-info.js";
import type { PrismaClient } from "../../generated/prisma/client.js";
import { createLogger } from "../../logger.js";
import type { RunService } from "../run/index.js";
import { createMcpProtocolServer } from "./mcp-protocol-server.js";
import { McpToolsService } from "./mcp-tools.service.js";

/** What the database says when it fails: words a client must never read. */
const DATABASE_FAILURE = 'relation "public.Workflow" does not exist at 10.0.0.7:5432';

const lines: Record<string, unknown>[] = [];
const logger = createLogger({ LOG_LEVEL: "info" }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
let client: Client | null = null;

afterEach(async () => {
  await client?.close();
  client = null;
  lines.length = 0;
});

/** A client connected in memory to the MCP server, whose tools read a database that fails every query. */
async function connectToFailingDatabase(): Promise<Client> {
  const failing = { workflow: { findMany: () => Promise.reject(new Error(DATABASE_FAILURE)) } } as unknown as PrismaClient;
  const tools = new McpToolsService({
    db: failing,
    registry: new NodeTypeRegistry(BUILT_IN_NODE_TYPES),
    versionContents: () => Promise.reject(new Error("not reached")),
    runs: {} as RunService,
    logger,
  });
  const auth: AuthInfo = { keyId: null, scopes: new Set(["admin"]), authenticated: true };
  const server = createMcpProtocolServer(tools, { auth, caller: "key:test" }, logger);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: "weft-mcp-unit", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

test("a failure below tools/list is answered as an internal error without its message, and logged with the JSON-RPC id", async () => {
  const mcp = await connectToFailingDatabase();
  const refused = await mcp.listTools().catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(McpError);
  expect(refused).toMatchObject({ code: ErrorCode.InternalError });
  expect(String((refused as McpError).message)).not.toContain("Workflow");
  expect((refused as McpError).message).toMatch(/internal server error/);
  const logged = lines.find((line) => line["msg"] === "MCP request failed");
  expect(logged).toMatchObject({ method: "tools/list", jsonRpcId: expect.any(Number), err: { message: DATABASE_FAILURE } });
});

test("a failure below tools/call is answered as an internal error without its message", async () => {
  const mcp = await connectToFailingDatabase();
  const refused = await mcp.callTool({ name: "any_tool", arguments: {} }).catch((error: unknown) => error);
  expect(refused).toMatchObject({ code: ErrorCode.InternalError, message: expect.not.stringContaining("Workflow") });
  expect(lines.filter((line) => line["msg"] === "MCP request failed").map((line) => line["method"])).toEqual(["tools/call"]);
});

test("an McpError a handler throws on purpose reaches the client as it is", async () => {
  const mcp = await connectToFailingDatabase();
  const refused = await mcp.listTools({ cursor: "x".repeat(65) }).catch((error: unknown) => error);
  expect(refused).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining("cursor is not one this server gave") });
  expect(lines.filter((line) => line["msg"] === "MCP request failed")).toEqual([]);
});
