import { jsonText, type JsonValue } from "../model/json-value.js";

/**
 * Conversation threads (SPEC-V2 §7): a run on a thread reads the thread's earlier messages (the
 * `history` node) and its thread-scoped state channels; when it completes, its question and its answer
 * are appended as two messages and its thread channels stored. Storage is the caller's (the API keeps
 * threads in the database, the command line in a file); the engine only reads through `ThreadHistory`
 * and offers the pure decisions both callers share: what a turn appends, what retention keeps, which
 * messages fit a history's limits.
 */

export type ThreadRole = "user" | "assistant";

export interface ThreadMessage {
  role: ThreadRole;
  content: string;
  /** ISO 8601. */
  createdAt: string;
  /** The run that added the message, when known. */
  runId?: string | null;
}

/** What `history` nodes read: the thread the run belongs to. */
export interface ThreadHistory {
  /** The thread's latest `limit` messages, oldest first (the run's own question is not among them yet). */
  recentMessages(limit: number, signal: AbortSignal): Promise<ThreadMessage[]>;
}

export const THREAD_LIMITS = {
  /** Messages one `history` node may read. */
  maxHistoryMessages: 1_000,
  /** The largest `maxTokens` of a `history` node. */
  maxHistoryTokens: 1_000_000,
  /** Characters of one stored message (longer answers are cut, with a marker). */
  maxMessageLength: 100_000,
} as const;

/** Characters ÷ 4, rounded up: the same approximation as the offline models' usage, not a tokenizer. */
export function approximateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * The newest messages that fit both limits, oldest first: at most `maxMessages`, and (with `maxTokens`)
 * as many of the newest as fit the token budget together — a message that does not fit ends the history,
 * so the model never sees a gap.
 */
export function fitMessages<T extends ThreadMessage>(messages: readonly T[], limits: { maxMessages: number; maxTokens?: number | null }): T[] {
  const newest = messages.slice(Math.max(0, messages.length - limits.maxMessages));
  if (limits.maxTokens === undefined || limits.maxTokens === null) return newest;
  let budget = limits.maxTokens;
  let start = newest.length;
  while (start > 0) {
    const cost = approximateTokens((newest[start - 1] as T).content);
    if (cost > budget) break;
    budget -= cost;
    start -= 1;
  }
  return newest.slice(start);
}

const SPEAKER: Record<ThreadRole, string> = { user: "User", assistant: "Assistant" };

/** `User: …` and `Assistant: …` paragraphs, oldest first: the history as prompt text. */
export function formatTranscript(messages: readonly ThreadMessage[]): string {
  return messages.map((message) => `${SPEAKER[message.role]}: ${message.content}`).join("\n\n");
}

/** The run's input contents joined in input-node order (blank ones left out): the question it was asked. */
export function runQuestionText(runInputs: Readonly<Record<string, JsonValue>>): string {
  return Object.values(runInputs)
    .map(jsonText)
    .filter((text) => text.trim() !== "")
    .join("\n");
}

function clip(text: string): string {
  const max = THREAD_LIMITS.maxMessageLength;
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The two messages a completed run adds to its thread: its question, then its answer. */
export function turnMessages(turn: { runId: string; question: string; answer: string; at: Date }): ThreadMessage[] {
  const createdAt = turn.at.toISOString();
  return [
    { role: "user", content: clip(turn.question), createdAt, runId: turn.runId },
    { role: "assistant", content: clip(turn.answer), createdAt, runId: turn.runId },
  ];
}

/** Retention limits of a thread; null: no limit of that kind. */
export interface ThreadRetention {
  maxMessages: number | null;
  maxAgeSeconds: number | null;
}

/** What retention keeps of a thread (oldest first): messages younger than the age limit, then the newest `maxMessages`. */
export function retainMessages<T extends ThreadMessage>(messages: readonly T[], retention: ThreadRetention, now: Date): T[] {
  const oldest = retention.maxAgeSeconds === null ? -Infinity : now.getTime() - retention.maxAgeSeconds * 1000;
  const young = messages.filter((message) => Date.parse(message.createdAt) >= oldest);
  return retention.maxMessages === null ? young : young.slice(Math.max(0, young.length - retention.maxMessages));
}
