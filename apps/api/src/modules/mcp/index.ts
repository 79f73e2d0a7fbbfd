/** The MCP module's doorway: the configured servers and their tools (the MCP client is @weft/providers' McpClients). */
export { McpCatalogService } from "./mcp-catalog.service.js";
export { McpResolver } from "./mcp.resolver.js";
