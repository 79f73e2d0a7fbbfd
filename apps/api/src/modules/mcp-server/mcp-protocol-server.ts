import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  CancelledNotificationSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../../logger.js";
import type { McpCaller, McpToolsService } from "./mcp-tools.service.js";

/** Longer than any tool name we accept, so a cursor past it is no tool name at all. */
const MAX_CURSOR_LENGTH = 64;
const SERVER_INFO = { name: "weft", version: "0.1.0" };

/**
 * The MCP server for one HTTP request (stateless streamable HTTP: a server and a transport per POST, as
 * the SDK's stateless example does), acting for the request's API key. It offers tools only:
 * tools/list pages through the offered workflows, tools/call runs one and sends the run's events as
 * progress notifications when the client gave a progressToken.
 */
export function createMcpProtocolServer(tools: McpToolsService, who: McpCaller, logger: Logger): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: "Each tool runs a published Weft workflow and returns its final output; its arguments are the workflow's inputs.",
  });
  server.onerror = (error) => logger.warn({ err: error }, "MCP protocol error");
  server.setRequestHandler(ListToolsRequestSchema, guarded(logger, "tools/list", async (request) => {
    const cursor = request.params?.cursor;
    if (cursor !== undefined && cursor.length > MAX_CURSOR_LENGTH) throw new McpError(ErrorCode.InvalidParams, "cursor is not one this server gave");
    return tools.list(cursor);
  }));
  server.setRequestHandler(CallToolRequestSchema, guarded(logger, "tools/call", async (request, extra) => {
    const token = request.params._meta?.progressToken;
    const report = async ({ progress, message }: { progress: number; message: string }) => {
      if (token === undefined || extra.signal.aborted) return;
      // A client gone meanwhile must not fail the call: its run goes on (or is cancelled by the abort).
      await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress, message } }).catch(() => undefined);
    };
    // Cancelled by a notifications/cancelled (on a POST of its own, see InFlightCalls) or by the client
    // leaving: closing the response's connection closes this server, which aborts extra.signal.
    const call = tools.inFlight.track(who.caller, extra.requestId);
    extra.signal.addEventListener("abort", call.abort, { once: true });
    try {
      const result = await tools.call(request.params.name, request.params.arguments, who, report, call.signal);
      logger.info({ tool: request.params.name.slice(0, 80), runId: result._meta?.["weft/runId"], isError: result.isError ?? false }, "MCP tool called");
      return result;
    } finally {
      extra.signal.removeEventListener("abort", call.abort);
      call.release();
    }
  }));
  server.setNotificationHandler(CancelledNotificationSchema, async (notification) => {
    const { requestId } = notification.params;
    if (requestId !== undefined) tools.inFlight.cancel(who.caller, requestId);
  });
  return server;
}

type HandlerExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * A request handler that answers anything but an McpError with "internal server error", logged with the
 * JSON-RPC id (the logger carries the HTTP request's): the SDK would send any other error's message word
 * for word (a database's, the bus's, a parser's), which is no business of the client's.
 */
function guarded<Request, Result>(
  logger: Logger,
  method: string,
  handle: (request: Request, extra: HandlerExtra) => Promise<Result>,
): (request: Request, extra: HandlerExtra) => Promise<Result> {
  return async (request, extra) => {
    try {
      return await handle(request, extra);
    } catch (error) {
      if (error instanceof McpError) throw error;
      logger.error({ err: error, jsonRpcId: extra.requestId, method }, "MCP request failed");
      throw new McpError(ErrorCode.InternalError, "internal server error");
    }
  };
}
