import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

/** One tool of the test server: string arguments by name, answered by a function (throwing: a tool error). */
export interface McpTestTool {
  name: string;
  description: string;
  /** Argument names; each a required string. */
  args: string[];
  answer(args: Record<string, string>, request: { authorization: string | undefined }): string | Promise<string>;
}

export interface McpTestServer {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  /** `http://127.0.0.1:<port>/refuse`: always 401, its body repeating the Authorization header sent (as careless servers do). */
  refusedUrl: string;
  /** Every tools/call received, in order. */
  calls: { tool: string; args: Record<string, string>; authorization: string | undefined }[];
  stop(): Promise<void>;
}

/**
 * A real MCP server on loopback, built with the official SDK and speaking streamable HTTP (stateless: a
 * server and transport per request, as the SDK's examples do), for tests of Weft's MCP client. Every
 * call is recorded with the Authorization header it came with.
 */
export async function startMcpTestServer(tools: readonly McpTestTool[]): Promise<McpTestServer> {
  const calls: McpTestServer["calls"] = [];
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (request.url === "/refuse") {
      response.writeHead(401, { "content-type": "text/plain" }).end(`invalid credentials: ${request.headers.authorization ?? "none"}`);
      return;
    }
    if (request.url !== "/mcp") {
      response.writeHead(404).end();
      return;
    }
    const authorization = request.headers.authorization;
    const server = new McpServer({ name: "weft-test-tools", version: "1.0.0" });
    for (const tool of tools) {
      const shape = Object.fromEntries(tool.args.map((name) => [name, z.string()]));
      server.registerTool(tool.name, { description: tool.description, inputSchema: shape }, async (args: Record<string, string>) => {
        calls.push({ tool: tool.name, args, authorization });
        try {
          return { content: [{ type: "text" as const, text: await tool.answer(args, { authorization }) }] };
        } catch (error) {
          return { isError: true, content: [{ type: "text" as const, text: (error as Error).message }] };
        }
      });
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  };
  const http: Server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    refusedUrl: `http://127.0.0.1:${port}/refuse`,
    calls,
    stop: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
