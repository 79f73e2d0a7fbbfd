import type { JsonValue } from "../model/json-value.js";

/**
 * Tools of MCP servers (SPEC-V3 §3 `{"type": "mcp", "server", "tool"?}`): the host connects to the
 * servers its operator configured (WEFT_PROVIDERS_FILE `mcp`) and calls their tools. A server that is
 * not configured, cannot be reached or answers with a protocol error fails with a WeftError code.
 */
export interface McpTools {
  /** The server's tools (`tools/list`). */
  listTools(server: string, signal: AbortSignal): Promise<McpToolInfo[]>;
  /** Calls one tool (`tools/call`). A tool's own failure is `isError: true`, not an exception. */
  callTool(server: string, tool: string, args: Readonly<Record<string, JsonValue>>, signal: AbortSignal): Promise<McpToolResult>;
}

export interface McpToolInfo {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  inputSchema: Record<string, unknown>;
}

export interface McpToolResult {
  isError: boolean;
  /** `structuredContent` when the tool gave one, else its text content joined (other content as JSON). */
  content: JsonValue;
}
