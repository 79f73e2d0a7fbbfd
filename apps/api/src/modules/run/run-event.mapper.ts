import { isJsonObject } from "@weft/engine";
import type { RunEventMessage } from "../../pubsub.js";
import { toRunError } from "./run.mapper.js";
import type { RunErrorObject } from "./run.type.js";
import type { HumanActionObject, NodeEventDetailsObject, NodeOutputObject, TokenUsageObject } from "./run-event.type.js";
import type { AgentToolCallObject } from "./run-event-kinds.type.js";

/**
 * A stored event message as GraphQL resolves it, for every kind's type and both interfaces
 * (run-event.type.ts): one small object per event, whose fields are read from the payload only when a
 * query selects them (getters), so a subscriber that asks for `seq type` costs no more than that. The
 * deprecated lifted fields keep their former meaning (`output` is a RUN_COMPLETED's result, `text` a
 * WARNING's message, `code` only on WARNING, …); a kind's own field of the same name reads the same.
 */
export class RunEventView {
  readonly runId: string;
  readonly seq: number;
  readonly type: string;
  readonly nodeId: string | null;
  readonly payload: Record<string, unknown>;
  readonly #at: string;

  constructor(message: RunEventMessage) {
    this.runId = message.runId;
    this.seq = message.seq;
    this.type = message.type;
    this.nodeId = message.nodeId;
    this.payload = message.payload;
    this.#at = message.at;
  }

  get at(): Date {
    return new Date(this.#at);
  }

  get description(): string | null {
    return this.#text("description");
  }

  get output(): string | null {
    return this.type === "RUN_COMPLETED" ? this.#text("result") : this.#text("output");
  }

  get text(): string | null {
    return this.type === "WARNING" ? this.#text("message") : this.#text("text");
  }

  get error(): RunErrorObject | null {
    return toRunError(this.payload["error"]);
  }

  get nodeIds(): string[] | null {
    return this.type === "RUN_STARTED" ? this.#texts("nodeIds") : null;
  }

  get code(): string | null {
    return this.type === "WARNING" ? this.#text("code") : null;
  }

  get reason(): string | null {
    return this.type === "NODE_SKIPPED" || this.type === "RUN_CANCELLED" ? this.#text("reason") : null;
  }

  get invocation(): string | null {
    return this.#text("invocation");
  }

  get value(): unknown {
    return this.payload["value"] ?? null;
  }

  get ports(): string[] | null {
    return this.#texts("ports");
  }

  get skipped(): string[] | null {
    return this.#texts("skipped");
  }

  get loopId(): string | null {
    return this.#text("loopId");
  }

  get iteration(): number | null {
    return this.#int("iteration");
  }

  get max(): number | null {
    return this.#int("max");
  }

  get feedback(): string | null {
    return this.#text("feedback");
  }

  get exit(): string | null {
    return this.type === "LOOP_EXHAUSTED" ? this.#text("exit") : null;
  }

  get items(): number | null {
    return this.#int("items");
  }

  get index(): number | null {
    return this.#int("index");
  }

  get attempt(): number | null {
    return this.type === "RUN_RESUMED" ? this.#int("attempt") : null;
  }

  get channel(): string | null {
    return this.#text("channel");
  }

  get similarity(): number | null {
    const similarity = this.payload["similarity"];
    return typeof similarity === "number" ? similarity : null;
  }

  get state(): Record<string, unknown> | null {
    const state = this.payload["state"];
    return isJsonObject(state) ? state : null;
  }

  // The kinds' own fields.

  get nodeType(): string {
    return this.#text("nodeType") ?? "";
  }

  get passed(): unknown {
    return this.payload["passed"] ?? null;
  }

  get details(): NodeEventDetailsObject {
    const details = isJsonObject(this.payload["details"]) ? this.payload["details"] : {};
    const date = (value: unknown) => (typeof value === "string" ? new Date(value) : null);
    return {
      provider: typeof details["provider"] === "string" ? details["provider"] : null,
      model: typeof details["model"] === "string" ? details["model"] : null,
      usage: isJsonObject(details["usage"]) ? usageOf(details["usage"]) : null,
      retries: Number.isInteger(details["retries"]) ? (details["retries"] as number) : 0,
      startedAt: date(details["startedAt"]),
      finishedAt: date(details["finishedAt"]),
    };
  }

  get blockedBy(): string | null {
    return this.#text("blockedBy");
  }

  get message(): string {
    return this.#text("message") ?? "";
  }

  get result(): string | null {
    return this.#text("result");
  }

  get outputs(): NodeOutputObject[] {
    const outputs = this.payload["outputs"];
    if (!isJsonObject(outputs)) return [];
    // By node id: the stored payload (jsonb) does not keep the order the engine wrote its keys in.
    return Object.keys(outputs)
      .sort()
      .map((nodeId) => ({ nodeId, output: typeof outputs[nodeId] === "string" ? outputs[nodeId] : JSON.stringify(outputs[nodeId]) }));
  }

  get usage(): TokenUsageObject {
    return usageOf(isJsonObject(this.payload["usage"]) ? this.payload["usage"] : {});
  }

  get failedNodeIds(): string[] {
    return this.#texts("failedNodeIds") ?? [];
  }

  // Human steps (SPEC-V3 §2).

  get taskId(): string {
    return this.#text("taskId") ?? "";
  }

  get taskIds(): string[] {
    return this.#texts("taskIds") ?? [];
  }

  get actions(): HumanActionObject[] {
    const actions = this.payload["actions"];
    if (!Array.isArray(actions)) return [];
    return actions.flatMap((entry: unknown) => (isJsonObject(entry) && typeof entry["id"] === "string" ? [{ id: entry["id"], label: typeof entry["label"] === "string" ? entry["label"] : null }] : []));
  }

  get form(): unknown {
    return this.payload["form"] ?? null;
  }

  get expiresAt(): Date | null {
    return this.#date("expiresAt");
  }

  get title(): string {
    return this.#text("title") ?? "";
  }

  get instructions(): string {
    return this.#text("instructions") ?? "";
  }

  get input(): unknown {
    return this.payload["input"] ?? null;
  }

  get editable(): boolean {
    return this.payload["editable"] === true;
  }

  get assignee(): string | null {
    return this.#text("assignee");
  }

  get onTimeout(): string | null {
    return this.#text("onTimeout");
  }

  get action(): string | null {
    return this.#text("action");
  }

  get by(): string | null {
    return this.#text("by");
  }

  get data(): unknown {
    return this.payload["data"] ?? null;
  }

  get comment(): string | null {
    return this.#text("comment");
  }

  get completedAt(): Date | null {
    return this.#date("completedAt");
  }

  get openedAt(): Date | null {
    return this.#date("openedAt");
  }

  get expired(): boolean {
    return this.payload["expired"] === true;
  }

  // Agents (SPEC-V3 §3).

  get step(): number {
    return this.#int("step") ?? 0;
  }

  get calls(): AgentToolCallObject[] {
    const calls = this.payload["calls"];
    if (!Array.isArray(calls)) return [];
    return calls.filter(isJsonObject).map((call) => ({ callId: String(call["callId"] ?? ""), tool: String(call["tool"] ?? ""), arguments: String(call["arguments"] ?? "") }));
  }

  get finishReason(): string | null {
    return this.#text("finishReason");
  }

  get callId(): string {
    return this.#text("callId") ?? "";
  }

  get tool(): string {
    return this.#text("tool") ?? "";
  }

  // Named for the event's field; a class getter may be called `arguments`.
  get arguments(): unknown {
    return this.payload["arguments"] ?? null;
  }

  get ok(): boolean {
    return this.payload["ok"] === true;
  }

  get summary(): string {
    return this.#text("summary") ?? "";
  }

  #date(key: string): Date | null {
    const value = this.payload[key];
    return typeof value === "string" ? new Date(value) : null;
  }

  #text(key: string): string | null {
    const value = this.payload[key];
    return typeof value === "string" ? value : null;
  }

  #int(key: string): number | null {
    const value = this.payload[key];
    return Number.isInteger(value) ? (value as number) : null;
  }

  #texts(key: string): string[] | null {
    const value = this.payload[key];
    return Array.isArray(value) ? value.map(String) : null;
  }
}

export function toRunEventView(message: RunEventMessage): RunEventView {
  return new RunEventView(message);
}

function usageOf(usage: Record<string, unknown>): TokenUsageObject {
  const count = (key: string) => (Number.isInteger(usage[key]) ? (usage[key] as number) : 0);
  return { promptTokens: count("promptTokens"), completionTokens: count("completionTokens"), totalTokens: count("totalTokens") };
}
