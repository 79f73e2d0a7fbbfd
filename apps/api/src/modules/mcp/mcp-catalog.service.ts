import type { McpClients } from "@weft/providers";
import type { McpServerObject } from "./mcp-server.type.js";

/** How long `mcpServers` waits for one server's tools before reporting it as not answering. */
const LIST_TIMEOUT_MS = 10_000;

/** The MCP servers of WEFT_PROVIDERS_FILE with their tools, listed live (one server's failure is its own `error`). */
export class McpCatalogService {
  constructor(private readonly clients: McpClients | null) {}

  async servers(): Promise<McpServerObject[]> {
    if (!this.clients) return [];
    const clients = this.clients;
    return Promise.all(
      clients.servers().map(async (server) => {
        try {
          const tools = await clients.listTools(server.name, AbortSignal.timeout(LIST_TIMEOUT_MS));
          return { ...server, tools, error: null };
        } catch (error) {
          const { code, message } = error as { code?: string; message?: string };
          return { ...server, tools: [], error: `${code ?? "MCP_UNAVAILABLE"}: ${message ?? String(error)}` };
        }
      }),
    );
  }
}
