/** The MCP server module's doorway: workflows' MCP settings (GraphQL) and the tools /mcp offers. */
export { WorkflowMcpService } from "./workflow-mcp.service.js";
export { WorkflowMcpResolver } from "./workflow-mcp.resolver.js";
export { McpToolsService, MCP_TOOLS_PAGE_SIZE, type McpCaller } from "./mcp-tools.service.js";
export { createMcpProtocolServer } from "./mcp-protocol-server.js";
