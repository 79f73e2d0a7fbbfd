import type { NodeTypeRegistry } from "@weft/engine";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { AuthInfo } from "../../auth/auth-info.js";
import type { PrismaClient } from "../../generated/prisma/client.js";
import type { Logger } from "../../logger.js";
import type { RunEventMessage } from "../../pubsub.js";
import { runResultValue, workflowToolParameters, type RunService } from "../run/index.js";
import type { VersionContent } from "../workflow-version/index.js";
import { InFlightCalls } from "./in-flight-calls.js";
import { readToolArguments } from "./mcp-tool-arguments.js";

/** Tools per tools/list page; the cursor is the last tool's name. */
export const MCP_TOOLS_PAGE_SIZE = 100;

export interface McpToolsDeps {
  db: PrismaClient;
  registry: NodeTypeRegistry;
  /** What versions hold, by id (a tools/list page reads them together). */
  versionContents(versionIds: readonly string[]): Promise<ReadonlyMap<string, VersionContent>>;
  runs: RunService;
  logger: Logger;
  /** Tools per tools/list page (MCP_TOOLS_PAGE_SIZE). */
  pageSize?: number;
}

/** Who calls: the key's auth, and whose run budget the run spends (as runWorkflow's `caller`). */
export interface McpCaller {
  auth: AuthInfo;
  caller: string;
}

/** A run event as a progress report: `progress` grows with every event (its sequence number). */
export interface McpProgress {
  progress: number;
  message: string;
}

interface OfferedWorkflow {
  id: string;
  name: string;
  description: string;
  toolName: string;
  toolDescription: string | null;
  version: { id: string; number: number };
}

/**
 * The MCP server's tools (SPEC-V3 §3): every workflow with `mcp.enabled` and a published version, its
 * parameters its input nodes. A call is an ordinary run of the latest published version, started as
 * runWorkflow starts one (the caller's key and run budget, the same checks), reported as it goes and
 * answered with its result; a run that does not complete is a tool error carrying the run's code.
 */
export class McpToolsService {
  /** This process's calls in flight, for cancellations that arrive on a request of their own. */
  readonly inFlight = new InFlightCalls();

  constructor(private readonly deps: McpToolsDeps) {}

  async list(cursor: string | undefined): Promise<{ tools: Tool[]; nextCursor?: string }> {
    const size = this.deps.pageSize ?? MCP_TOOLS_PAGE_SIZE;
    const rows = await this.#offered(cursor === undefined ? {} : { mcpToolName: { gt: cursor } }, size + 1);
    const page = rows.slice(0, size);
    const contents = await this.deps.versionContents(page.map((row) => row.version.id));
    const tools = page.map((row) => this.#describe(row, contents.get(row.version.id)!));
    return rows.length > size ? { tools, nextCursor: page.at(-1)!.toolName } : { tools };
  }

  async call(toolName: string, args: unknown, who: McpCaller, report: (progress: McpProgress) => Promise<void>, signal: AbortSignal): Promise<CallToolResult> {
    const [offered] = await this.#offered({ mcpToolName: toolName }, 1);
    if (!offered) return toolError("NOT_FOUND", `no tool "${toolName.slice(0, 80)}": no published workflow is offered under this name`);
    const { workflow } = (await this.deps.versionContents([offered.version.id])).get(offered.version.id)!;
    const inputs = readToolArguments(args, workflowToolParameters(workflow, this.deps.registry));
    if (!inputs.ok) return toolError("TOOL_ARGUMENTS_INVALID", inputs.message);
    const started = await this.deps.runs.start(offered.id, { version: offered.version.number, inputs: inputs.value }, who.auth, who.caller);
    if (!started.ok) {
      const first = started.errors[0]!;
      return toolError(first.code, first.message);
    }
    const runId = started.value.id;
    const waiting = await this.#follow(runId, report, signal);
    const meta = { "weft/runId": runId, "weft/version": offered.version.number };
    if (waiting) return waitingResult(runId, waiting, meta);
    const run = await this.deps.runs.get(runId);
    if (run?.status === "COMPLETED") return completed(run.result, meta);
    const error = run?.error ?? { code: "RUN_CANCELLED", message: `the run ended ${run?.status ?? "unknown"}` };
    return { ...toolError(error.code, error.message), _meta: { ...meta, "weft/code": error.code } };
  }

  /**
   * Reports the run's events until it ends, or until it waits for a person: then the tasks it waits for
   * (the call answers at once rather than holding a request and a subscription for as long as a task is
   * open; the run goes on when a person decides). A call the client cancels (or leaves) cancels its run.
   */
  async #follow(runId: string, report: (progress: McpProgress) => Promise<void>, signal: AbortSignal): Promise<WaitingTasks | null> {
    const events = await this.deps.runs.streamEvents(runId, 0);
    const stop = () => {
      void events.return?.();
      this.deps.runs.cancel(runId).catch((error: unknown) => this.deps.logger.warn({ err: error, runId }, "could not cancel the run of a cancelled MCP call"));
    };
    if (signal.aborted) stop();
    signal.addEventListener("abort", stop, { once: true });
    try {
      for await (const event of events) {
        await report({ progress: event.seq, message: progressMessage(event) });
        if (event.type === "RUN_WAITING") return { taskIds: taskIdsOf(event.payload) };
      }
      return null;
    } finally {
      signal.removeEventListener("abort", stop);
    }
  }

  #describe(row: OfferedWorkflow, { workflow }: VersionContent): Tool {
    const description = row.toolDescription ?? (row.description || `Runs the workflow "${row.name}" (version ${row.version.number}) and returns its result.`);
    return { name: row.toolName, title: row.name, description, inputSchema: workflowToolParameters(workflow, this.deps.registry) };
  }

  async #offered(where: { mcpToolName?: string | { gt: string } }, take: number): Promise<OfferedWorkflow[]> {
    const rows = await this.deps.db.workflow.findMany({
      where: { mcpEnabled: true, mcpToolName: { not: null }, versions: { some: {} }, ...where },
      orderBy: { mcpToolName: "asc" },
      take,
      select: { id: true, name: true, description: true, mcpToolName: true, mcpDescription: true, versions: { orderBy: { number: "desc" }, take: 1, select: { id: true, number: true } } },
    });
    return rows.flatMap((row) => {
      const version = row.versions[0];
      if (!version || row.mcpToolName === null) return [];
      return [{ id: row.id, name: row.name, description: row.description, toolName: row.mcpToolName, toolDescription: row.mcpDescription, version }];
    });
  }
}

/** The result as text, and a JSON object result also as structuredContent (clients that read JSON need not parse the text). */
function completed(result: string | null, meta: Record<string, unknown>): CallToolResult {
  const value = runResultValue(result);
  const structured = value !== null && typeof value === "object" && !Array.isArray(value) ? { structuredContent: value as Record<string, unknown> } : {};
  return { content: [{ type: "text", text: result ?? "" }], ...structured, _meta: meta };
}

interface WaitingTasks {
  taskIds: string[];
}

function taskIdsOf(payload: Record<string, unknown>): string[] {
  const ids = payload["taskIds"];
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : [];
}

/** A run waiting for a person is not cancelled: the answer says which tasks it waits for and which run to follow. */
function waitingResult(runId: string, waiting: WaitingTasks, meta: Record<string, unknown>): CallToolResult {
  const tasks = waiting.taskIds.join(", ");
  const error = toolError("RUN_WAITING", `the run waits for a person (task ids ${tasks}); follow it as run ${runId}`);
  return { ...error, _meta: { ...meta, "weft/code": "RUN_WAITING" } };
}

function toolError(code: string, message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: `${code}: ${message}` }], _meta: { "weft/code": code } };
}

function progressMessage(event: RunEventMessage): string {
  return event.nodeId ? `${event.type} ${event.nodeId}` : event.type;
}
