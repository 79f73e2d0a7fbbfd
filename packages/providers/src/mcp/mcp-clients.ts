import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isAbortError, secretReferencesIn, WeftError, type JsonValue, type McpToolInfo, type McpToolResult, type McpTools } from "@weft/engine";
import { fillSecretReferences, readSecrets, type SecretReader } from "../config/secret-references.js";
import { SecretRedactor } from "../http/secret-redactor.js";
import type { McpServerConfig } from "./mcp-servers-config.js";

/** Bounds of what a server may hand us: pages of tools, tools in all, and how long one request may take. */
export const MCP_CLIENT_LIMITS = Object.freeze({ maxToolPages: 16, maxTools: 512 });

export interface McpClientsOptions {
  /** One request (connect, tools/list page, tools/call) at most this long: MCP_TIMEOUT. */
  timeoutMs: number;
  /** The name and version Weft gives itself in the handshake. */
  clientInfo?: { name: string; version: string };
  /** A stored secret's value (`{secret.NAME}` in a server's headers), read at each request; null when none is stored. */
  readSecret?: SecretReader;
}

/** What `mcpServers` shows of a configured server. */
export interface McpServerInfo {
  name: string;
  transport: "http" | "stdio";
  /** The URL, or the command (never headers or environment: they may hold credentials). */
  target: string;
}

/**
 * The MCP servers the operator configured (WEFT_PROVIDERS_FILE `mcp`), as the engine's McpTools, on
 * the official SDK: one client per server, connected when first used (an HTTP server over streamable
 * HTTP, a stdio server started as a child process), kept for the process's life and dropped after a
 * failure so the next use connects again. Errors carry codes: MCP_SERVER_UNKNOWN (not configured),
 * MCP_UNAVAILABLE (cannot connect, or the connection broke), MCP_TIMEOUT, MCP_ERROR (a protocol error
 * the server answered); a tool's own failure is a result with `isError`, not an exception. A secret
 * filled into a server's headers is shown as `[secret]` wherever the server repeats it (an error's text,
 * which the SDK takes from the server's answer; a tool's result or description) (SPEC-V3 §3).
 */
export class McpClients implements McpTools {
  readonly #servers: ReadonlyMap<string, McpServerConfig>;
  readonly #options: McpClientsOptions;
  readonly #clients = new Map<string, Promise<Client>>();
  // Every secret value sent to any server, kept for the process's life: an answer may repeat one after it was replaced.
  readonly #redactor = new SecretRedactor();

  constructor(servers: ReadonlyMap<string, McpServerConfig>, options: McpClientsOptions) {
    this.#servers = servers;
    this.#options = options;
  }

  servers(): McpServerInfo[] {
    return [...this.#servers].map(([name, server]) => ("url" in server ? { name, transport: "http", target: server.url } : { name, transport: "stdio", target: server.command }));
  }

  async listTools(server: string, signal: AbortSignal): Promise<McpToolInfo[]> {
    return this.#use(server, signal, async (client) => {
      const tools: McpToolInfo[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MCP_CLIENT_LIMITS.maxToolPages; page += 1) {
        const listed = await client.listTools(cursor === undefined ? {} : { cursor }, this.#request(signal));
        for (const tool of listed.tools) {
          tools.push({ name: tool.name, description: this.#redactor.text(tool.description ?? ""), inputSchema: this.#redactor.value(tool.inputSchema as Record<string, unknown>) });
        }
        if (tools.length > MCP_CLIENT_LIMITS.maxTools) throw new WeftError("MCP_ERROR", `MCP server "${server}" lists more than ${MCP_CLIENT_LIMITS.maxTools} tools`);
        cursor = listed.nextCursor;
        if (cursor === undefined) return tools;
      }
      throw new WeftError("MCP_ERROR", `MCP server "${server}" lists its tools in more than ${MCP_CLIENT_LIMITS.maxToolPages} pages`);
    });
  }

  async callTool(server: string, tool: string, args: Readonly<Record<string, JsonValue>>, signal: AbortSignal): Promise<McpToolResult> {
    return this.#use(server, signal, async (client) => {
      // The SDK's result type also admits the protocol's legacy `toolResult` shape: read the current one.
      const result = (await client.callTool({ name: tool, arguments: { ...args } }, undefined, this.#request(signal))) as { isError?: unknown; content?: unknown; structuredContent?: unknown };
      return { isError: result.isError === true, content: this.#redactor.value(resultContent(result)) };
    });
  }

  /** Closes every client (stdio servers' processes end with them). */
  async close(): Promise<void> {
    const clients = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.allSettled(clients.map(async (client) => (await client).close()));
  }

  async #use<T>(server: string, signal: AbortSignal, work: (client: Client) => Promise<T>): Promise<T> {
    const config = this.#servers.get(server);
    if (!config) {
      const known = [...this.#servers.keys()].join(", ") || "none";
      throw new WeftError("MCP_SERVER_UNKNOWN", `MCP server "${server}" is not configured (configured: ${known})`);
    }
    const connecting = this.#client(server, config, signal);
    try {
      return await work(await connecting);
    } catch (error) {
      if (error instanceof WeftError && error.code !== "MCP_UNAVAILABLE") throw this.#redactor.error(error);
      throw this.#redactor.error(this.#failure(server, connecting, error, signal));
    }
  }

  /** The server's client, connecting it first if needed; a closed connection is forgotten, so the next use connects again. */
  #client(server: string, config: McpServerConfig, signal: AbortSignal): Promise<Client> {
    const existing = this.#clients.get(server);
    if (existing) return existing;
    const forget = () => {
      if (this.#clients.get(server) === connecting) this.#clients.delete(server);
    };
    const connecting = this.#connect(server, config, signal, forget);
    this.#clients.set(server, connecting);
    return connecting;
  }

  async #connect(server: string, config: McpServerConfig, signal: AbortSignal, onClose: () => void): Promise<Client> {
    const client = new Client(this.#options.clientInfo ?? { name: "weft", version: "0.1.0" });
    try {
      await client.connect(transportOf(config, this.#options.readSecret ?? (async () => null), this.#redactor), this.#request(signal));
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new WeftError("MCP_UNAVAILABLE", `cannot connect to MCP server "${server}": ${messageOf(error)}`, { audience: "operational" });
    }
    client.onclose = onClose;
    return client;
  }

  /** Why a request failed, as a coded error; a broken or timed-out connection is dropped. */
  #failure(server: string, connecting: Promise<Client>, error: unknown, signal: AbortSignal): unknown {
    if (signal.aborted && isAbortError(error)) return error;
    const code = errorCode(error);
    if (code === "MCP_ERROR") return new WeftError(code, `MCP server "${server}" answered with an error: ${messageOf(error)}`);
    if (this.#clients.get(server) === connecting) this.#clients.delete(server);
    void connecting.then((client) => client.close()).catch(() => undefined);
    if (code === "MCP_TIMEOUT") return new WeftError(code, `MCP server "${server}" did not answer within ${this.#options.timeoutMs} ms`, { audience: "operational" });
    return error instanceof WeftError ? error : new WeftError("MCP_UNAVAILABLE", `MCP server "${server}" cannot be reached: ${messageOf(error)}`, { audience: "operational" });
  }

  #request(signal: AbortSignal) {
    return { signal, timeout: this.#options.timeoutMs };
  }
}

function transportOf(config: McpServerConfig, readSecret: SecretReader, redactor: SecretRedactor): Transport {
  if ("url" in config) {
    const headers = config.headers ?? {};
    const withSecrets = Object.entries(headers).filter(([, text]) => secretReferencesIn(text).length > 0);
    if (withSecrets.length === 0) return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: { ...headers } } });
    // Secrets are filled at each request, so a replaced one is sent from the next request on, with no restart;
    // each value sent is remembered, so what the server answers is cleaned of it.
    const fetchWithSecrets: typeof fetch = async (input, init) => {
      const sent = new Headers(init?.headers);
      const secrets = await readSecrets(withSecrets.flatMap(([, text]) => secretReferencesIn(text)), readSecret, redactor);
      for (const [name, text] of withSecrets) sent.set(name, fillSecretReferences(text, secrets));
      return fetch(input, { ...init, headers: sent });
    };
    const plain = Object.fromEntries(Object.entries(headers).filter(([, text]) => secretReferencesIn(text).length === 0));
    return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: plain }, fetch: fetchWithSecrets });
  }
  // Only the configured variables and PATH: the server process sees none of Weft's own secrets.
  const env = { ...(process.env["PATH"] ? { PATH: process.env["PATH"] } : {}), ...config.env };
  return new StdioClientTransport({ command: config.command, args: config.args ?? [], env, stderr: "ignore" });
}

/** `structuredContent` when the tool gave one, else its text content joined (other content as JSON). */
function resultContent(result: { content?: unknown; structuredContent?: unknown }): JsonValue {
  if (result.structuredContent !== null && typeof result.structuredContent === "object") return result.structuredContent as JsonValue;
  const content = Array.isArray(result.content) ? (result.content as { type?: unknown; text?: unknown }[]) : [];
  return content.map((item) => (item.type === "text" && typeof item.text === "string" ? item.text : JSON.stringify(item))).join("\n");
}

/** The SDK's McpError carries a JSON-RPC code: -32001 is its request timeout; other codes are the server's answer. */
function errorCode(error: unknown): "MCP_TIMEOUT" | "MCP_ERROR" | "MCP_UNAVAILABLE" {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === -32001) return "MCP_TIMEOUT";
  if (typeof code === "number" && code < 0 && code !== -32000) return "MCP_ERROR";
  return "MCP_UNAVAILABLE";
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
