import type { NodeRunDetails, RunEvent } from "@weft/engine";
import type { RunEventMessage, RunStatusValue } from "../../pubsub.js";

/**
 * How one engine event changes the database: the RunEvent row itself, the node run it concerns, and
 * the run (lastSeq always; status, totals, final state and the lock on transitions). Pure: returns
 * column values for the recorder to write in one statement (run-event-sql.ts).
 *
 * Node runs are kept per (run, node, invocation) (SPEC-V2 §4): the top-level invocation ("") of every
 * top-level node is created PENDING when the run starts; any other invocation (a loop's later
 * iteration, a map item, a subgraph's body) gets its row from its first event.
 */
export type ColumnValue = string | number | null | Date | { json: unknown } | { increment: number };
export type Columns = Record<string, ColumnValue>;

/** Which node run an event writes; `nodeType` is stored when the row does not exist yet. */
export interface NodeRunKey {
  nodeKey: string;
  invocation: string;
  nodeType: string;
}

/** Node id → type for every node of a run's workflow, bodies included (node ids are unique across it). */
export type NodeTypesById = ReadonlyMap<string, string>;

/** The task a NODE_WAITING event opens (SPEC-V3 §2): stored with the event, in the same statement. */
export interface HumanTaskInsert {
  id: string;
  nodeId: string;
  invocation: string;
  title: string;
  instructions: string;
  actions: unknown;
  form: unknown;
  input: unknown;
  editable: boolean;
  onTimeout: string | null;
  assignee: string | null;
  createdAt: Date;
  expiresAt: Date | null;
}

export interface EventWrites {
  message: RunEventMessage;
  nodeRun: (NodeRunKey & { set: Columns }) | null;
  run: Columns;
  /** Set when the run changes status with this event. */
  status: RunStatusValue | null;
  /** NODE_WAITING: the task it opens. */
  task?: HumanTaskInsert;
  /** A terminal event: the run's tasks still open are cancelled with it (its waiting nodes ended with it). */
  closesTasks?: boolean;
}

export function eventWrites(event: RunEvent, nodeTypes: NodeTypesById): EventWrites {
  const { seq, type, runId, at, ...rest } = event;
  const nodeId = "nodeId" in rest && typeof rest.nodeId === "string" ? rest.nodeId : null;
  const payload: Record<string, unknown> = { ...rest };
  if ("details" in payload) payload["details"] = compactDetails((rest as { details: NodeRunDetails }).details);
  const message: RunEventMessage = { runId, seq, type, at, nodeId, payload };
  const writes: EventWrites = { message, nodeRun: null, run: { lastSeq: seq }, status: null };
  const when = new Date(at);
  const nodeRun = (nodeId: string, invocation: string, set: Columns, nodeType?: string) => ({
    nodeKey: nodeId,
    invocation,
    nodeType: nodeType ?? typeOf(nodeTypes, nodeId),
    set,
  });
  switch (event.type) {
    case "RUN_STARTED":
      Object.assign(writes.run, { status: "RUNNING", startedAt: when });
      writes.status = "RUNNING";
      break;
    case "NODE_STARTED":
      writes.nodeRun = nodeRun(event.nodeId, event.invocation, { status: "RUNNING", startedAt: when }, event.nodeType);
      break;
    case "NODE_COMPLETED":
      writes.nodeRun = nodeRun(event.nodeId, event.invocation, {
        status: "COMPLETED",
        description: event.description,
        output: event.output,
        value: event.value === undefined ? null : { json: event.value },
        ...detailColumns(event.details),
      });
      Object.assign(writes.run, tokenIncrements(event.details));
      break;
    case "NODE_FAILED":
      writes.nodeRun = nodeRun(event.nodeId, event.invocation, { status: "FAILED", error: { json: event.error }, ...detailColumns(event.details) });
      Object.assign(writes.run, tokenIncrements(event.details));
      break;
    case "NODE_WAITING":
      writes.task = {
        id: event.taskId,
        nodeId: event.nodeId,
        invocation: event.invocation,
        title: event.title,
        instructions: event.instructions,
        actions: event.actions,
        form: event.form,
        input: event.input,
        editable: event.editable,
        onTimeout: event.onTimeout,
        assignee: event.assignee,
        createdAt: when,
        expiresAt: event.expiresAt === null ? null : new Date(event.expiresAt),
      };
      break;
    case "NODE_SKIPPED":
      writes.nodeRun = nodeRun(event.nodeId, event.invocation, {
        status: "SKIPPED",
        error: { json: { code: event.reason, message: skipMessage(event.reason, event.blockedBy) } },
      });
      break;
    case "RUN_COMPLETED":
    case "RUN_FAILED":
    case "RUN_CANCELLED": {
      const status = event.type === "RUN_COMPLETED" ? "COMPLETED" : event.type === "RUN_FAILED" ? "FAILED" : "CANCELLED";
      const error =
        event.type === "RUN_FAILED"
          ? event.error
          : event.type === "RUN_CANCELLED"
            ? { code: "RUN_CANCELLED", message: event.reason }
            : null;
      Object.assign(writes.run, {
        status,
        finishedAt: when,
        result: event.type === "RUN_COMPLETED" ? event.result : null,
        error: error ? { json: error } : null,
        promptTokens: event.usage.promptTokens,
        completionTokens: event.usage.completionTokens,
        totalTokens: event.usage.totalTokens,
        // The run's own total (a resumed run's includes what earlier attempts spent).
        ...(event.costUsd === undefined ? {} : { costUsd: event.costUsd }),
        state: event.state === undefined ? null : { json: event.state },
      });
      writes.status = status;
      writes.closesTasks = true;
      break;
    }
    default:
      break;
  }
  return writes;
}

/** The type of a node the run names; every node of its workflow is in the map, bodies included. */
function typeOf(nodeTypes: NodeTypesById, nodeId: string): string {
  const type = nodeTypes.get(nodeId);
  if (type === undefined) throw new Error(`run event names node "${nodeId}", which its workflow does not have`);
  return type;
}

function skipMessage(reason: string, blockedBy: string | null): string {
  if (reason === "RUN_CANCELLED") return "not run: the run was cancelled";
  if (reason === "BRANCH_NOT_TAKEN") return "not run: its branch was not taken";
  return blockedBy ? `not run: upstream node "${blockedBy}" failed` : "not run: an upstream node failed";
}

function compactDetails(details: NodeRunDetails): Record<string, unknown> {
  return {
    provider: details.provider,
    model: details.model,
    usage: details.usage,
    // Kept in the event: a resumed run counts what its finished invocations cost against limits.maxCostUsd.
    ...(details.costUsd === undefined ? {} : { costUsd: details.costUsd }),
    retries: details.retries,
    startedAt: details.startedAt,
    finishedAt: details.finishedAt,
  };
}

function detailColumns(details: NodeRunDetails): Columns {
  return {
    inputs: { json: details.inputs },
    renderedPrompt: details.renderedPrompt,
    context: { json: details.context },
    store: details.store,
    rawReply: details.rawReply,
    provider: details.provider,
    model: details.model,
    promptTokens: details.usage?.promptTokens ?? 0,
    completionTokens: details.usage?.completionTokens ?? 0,
    totalTokens: details.usage?.totalTokens ?? 0,
    costUsd: details.costUsd ?? null,
    retries: details.retries,
    startedAt: new Date(details.startedAt),
    finishedAt: details.finishedAt ? new Date(details.finishedAt) : null,
  };
}

function tokenIncrements(details: NodeRunDetails): Columns {
  const usage = details.usage;
  const cost: Columns = details.costUsd === undefined ? {} : { costUsd: { increment: details.costUsd } };
  if (!usage) return cost;
  return {
    promptTokens: { increment: usage.promptTokens },
    completionTokens: { increment: usage.completionTokens },
    totalTokens: { increment: usage.totalTokens },
    ...cost,
  };
}
