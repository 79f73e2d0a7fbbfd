import { REPLAYED_EVENT_TYPES, type EventError, type NodeRunDetails, type RunEventDraft, type RunEventType } from "../events/run-event.js";
import type { JsonValue } from "../model/json-value.js";
import type { NodeExecutionResult } from "../registry/node-type-definition.js";
import type { HumanTaskAnswer } from "../model/human-task.js";

/**
 * Resuming a run another process had started (its worker died): the run is executed again from the
 * start, but every node invocation that had finished is replayed from its recorded result instead of
 * executing (no provider call, no event), so the runner re-derives where it was — edge states, branches,
 * loop counters, map progress, state channels — from the per-invocation results alone. Invocations that
 * had not finished execute again. Structural events the earlier attempt had already emitted (skips,
 * branches, loop iterations, map progress, state updates) are not emitted twice, and seqs continue after
 * the last stored one, the run's first new event being RUN_RESUMED {attempt}.
 */
export interface RunResume {
  /** The attempt now executing (2 for the first resumption). */
  attempt: number;
  /** The last seq stored by earlier attempts: new events continue after it. */
  lastSeq: number;
  /** What earlier attempts recorded; build it from the stored events with `resumeFromEvents`. */
  record: ResumeRecord;
}

/** One finished invocation as an earlier attempt recorded it. */
export type FinishedInvocation =
  | { status: "COMPLETED"; result: NodeExecutionResult; startedAt: string | null }
  | { status: "FAILED"; error: EventError; details: Omit<NodeRunDetails, "startedAt" | "finishedAt">; startedAt: string | null };

/** A `human` node's invocation that had opened its task (NODE_WAITING) and not finished. */
export interface WaitingInvocation {
  taskId: string;
  expiresAt: string | null;
  startedAt: string | null;
  /** When the task was opened (its NODE_WAITING). */
  openedAt: string | null;
}

export interface ResumeRecord {
  /** By `invocationKey(nodeId, invocation)`. */
  finished: ReadonlyMap<string, FinishedInvocation>;
  /** `eventKey` of every replayable event already stored. */
  emitted: ReadonlySet<string>;
  /** Tasks opened by earlier attempts, by `invocationKey`: the invocation continues without a new NODE_STARTED. */
  waiting?: ReadonlyMap<string, WaitingInvocation>;
  /** When each invocation that had not finished started (NODE_STARTED), by `invocationKey`. */
  started?: ReadonlyMap<string, string>;
  /** Answers earlier attempts recorded (HUMAN_TASK_COMPLETED), by task id. */
  answers?: ReadonlyMap<string, HumanTaskAnswer>;
  /**
   * What unfinished invocations had recorded of their own progress (JOURNAL_TYPES: an agent's steps), by
   * `invocationKey`, in seq order: the executor replays it instead of doing that work again.
   */
  journal?: ReadonlyMap<string, readonly StoredEvent[]>;
}

/** Events an executor reads back when its invocation resumes (NodeExecutionContext.recorded). */
export const JOURNAL_TYPES: ReadonlySet<RunEventType> = new Set(["AGENT_STEP"]);

export function invocationKey(nodeId: string, invocation: string): string {
  return `${nodeId}\u0000${invocation}`;
}

/** What identifies an event within a run, for the replayable types; null for the others. */
export function eventKey(event: { type: string } & Record<string, unknown>): string | null {
  if (!REPLAYED_EVENT_TYPES.has(event.type as RunEventType)) return null;
  const part = (name: string) => (event[name] === undefined ? "" : String(event[name]));
  return [event.type, part("nodeId"), part("invocation"), part("loopId"), part("iteration"), part("index"), part("channel"), part("step")].join("\u0000");
}

/** A stored event: its type and its payload's fields (as the API keeps them), seq and time optional. */
export type StoredEvent = { type: string } & Record<string, unknown>;

/**
 * Rebuilds the record of finished invocations from a run's stored events, in seq order: NODE_COMPLETED
 * gives the output (`value` when JSON, else the text), the description, and for a router the ports it
 * took, what flowed on (`passed`) and its `feedback`; NODE_FAILED the error; NODE_WAITING the task a
 * `human` node opened, HUMAN_TASK_COMPLETED how it was closed; AGENT_STEP the steps an agent took.
 */
export function resumeFromEvents(events: Iterable<StoredEvent>): ResumeRecord {
  const finished = new Map<string, FinishedInvocation>();
  const started = new Map<string, string>();
  const emitted = new Set<string>();
  const waiting = new Map<string, WaitingInvocation>();
  const answers = new Map<string, HumanTaskAnswer>();
  const journal = new Map<string, StoredEvent[]>();
  for (const event of events) {
    const key = eventKey(event);
    if (key !== null) emitted.add(key);
    const nodeId = typeof event["nodeId"] === "string" ? event["nodeId"] : null;
    if (nodeId === null) continue;
    const at = invocationKey(nodeId, typeof event["invocation"] === "string" ? event["invocation"] : "");
    if (JOURNAL_TYPES.has(event.type as RunEventType)) {
      const entries = journal.get(at);
      if (entries) entries.push(event);
      else journal.set(at, [event]);
    } else if (event.type === "NODE_STARTED" && typeof event["at"] === "string") started.set(at, event["at"]);
    else if (event.type === "NODE_COMPLETED") finished.set(at, { status: "COMPLETED", result: completedResult(event), startedAt: started.get(at) ?? null });
    else if (event.type === "NODE_FAILED") {
      finished.set(at, { status: "FAILED", error: event["error"] as EventError, details: recordedDetails(event["details"]), startedAt: started.get(at) ?? null });
    } else if (event.type === "BRANCH_TAKEN") {
      const entry = finished.get(at);
      if (entry?.status === "COMPLETED") entry.result.ports = event["ports"] as string[];
    } else if (event.type === "NODE_WAITING") {
      const expiresAt = typeof event["expiresAt"] === "string" ? event["expiresAt"] : null;
      const openedAt = typeof event["at"] === "string" ? event["at"] : null;
      waiting.set(at, { taskId: String(event["taskId"]), expiresAt, startedAt: started.get(at) ?? null, openedAt });
    } else if (event.type === "HUMAN_TASK_COMPLETED") {
      answers.set(String(event["taskId"]), recordedAnswer(event));
    }
  }
  for (const key of finished.keys()) {
    waiting.delete(key);
    started.delete(key);
    journal.delete(key);
  }
  return { finished, emitted, waiting, answers, started, journal };
}

function recordedAnswer(event: StoredEvent): HumanTaskAnswer {
  const text = (name: string) => (typeof event[name] === "string" ? (event[name] as string) : null);
  return {
    action: text("action"),
    data: (event["data"] ?? null) as JsonValue,
    comment: text("comment"),
    by: text("by"),
    completedAt: text("completedAt") ?? text("at") ?? "",
    expired: event["expired"] === true,
  };
}

function completedResult(event: StoredEvent): NodeExecutionResult {
  const output = (event["value"] !== undefined ? event["value"] : event["output"]) as JsonValue;
  return {
    description: typeof event["description"] === "string" ? event["description"] : "",
    output,
    ...(Array.isArray(event["ports"]) ? { ports: event["ports"] as string[] } : {}),
    ...(event["passed"] !== undefined ? { value: event["passed"] as JsonValue } : {}),
    ...(typeof event["feedback"] === "string" ? { feedback: event["feedback"] } : {}),
    details: recordedDetails(event["details"]),
  };
}

/** The details an event kept (the API stores a compact form): usage, provider and model count. */
function recordedDetails(value: unknown): Omit<NodeRunDetails, "startedAt" | "finishedAt"> {
  const details = (value ?? {}) as Partial<NodeRunDetails>;
  return {
    inputs: details.inputs ?? [],
    renderedPrompt: details.renderedPrompt ?? null,
    context: details.context ?? [],
    store: details.store ?? null,
    rawReply: details.rawReply ?? null,
    provider: details.provider ?? null,
    model: details.model ?? null,
    usage: details.usage ?? null,
    ...(typeof details.costUsd === "number" ? { costUsd: details.costUsd } : {}),
    retries: details.retries ?? 0,
  };
}

/** What earlier attempts' finished invocations cost (a resumed run's spending starts there); null when none was priced. */
export function recordedCost(record: ResumeRecord): number | null {
  let total: number | null = null;
  for (const entry of record.finished.values()) {
    const cost = entry.status === "COMPLETED" ? entry.result.details.costUsd : entry.details.costUsd;
    if (cost !== undefined) total = (total ?? 0) + cost;
  }
  return total;
}

/** Whether a resumed run must not emit this event again. */
export function alreadyEmitted(record: ResumeRecord, draft: RunEventDraft): boolean {
  const key = eventKey(draft as unknown as StoredEvent);
  return key !== null && record.emitted.has(key);
}
