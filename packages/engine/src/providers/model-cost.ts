import type { LlmProvider, LlmRequest, TokenUsage } from "./llm-provider.js";
import { utf8Length } from "../model/utf8-length.js";
import { requestMessages } from "./llm-messages.js";

/** A model's prices, in US dollars per million tokens. */
export interface ModelPrice {
  inputUsdPerMTok: number;
  outputUsdPerMTok: number;
}

/**
 * The completion tokens the estimate assumes when a call names no limit (`max_tokens`, `maxTokens`,
 * `max_completion_tokens`): runs with `limits.maxCostUsd` should set one on their model nodes.
 */
export const DEFAULT_COMPLETION_TOKENS_ESTIMATE = 4_096;

/** Tokens a chat template adds around each message (role markers); generous, as the estimate must not fall short. */
const TOKENS_PER_MESSAGE = 8;

/** The price of a provider's model when both of its prices are configured; null otherwise (its calls are not costed). */
export function modelPrice(provider: LlmProvider, model: string): ModelPrice | null {
  const info = provider.models.find((candidate) => candidate.id === model);
  if (info?.inputUsdPerMTok === undefined || info.outputUsdPerMTok === undefined) return null;
  return { inputUsdPerMTok: info.inputUsdPerMTok, outputUsdPerMTok: info.outputUsdPerMTok };
}

/** What a call cost, from the usage the provider reported. */
export function usageCost(usage: TokenUsage, price: ModelPrice): number {
  return (usage.promptTokens * price.inputUsdPerMTok + usage.completionTokens * price.outputUsdPerMTok) / 1_000_000;
}

/**
 * The most a call can cost, known before it is made: every prompt token is at least one UTF-8 byte in
 * the byte-level tokenizers these models use, so the prompt's bytes (every message, the tool definitions
 * and JSON Schema sent with it, plus a few tokens per message) bound its prompt tokens; the completion is
 * bounded by the call's max tokens (DEFAULT_COMPLETION_TOKENS_ESTIMATE when it names none). An upper
 * bound, not a forecast: a run near its `maxCostUsd` stops before a call that might have fitted.
 */
export function estimateCallCost(request: LlmRequest, price: ModelPrice): number {
  let bytes = 0;
  const messages = requestMessages(request);
  for (const message of messages) {
    bytes += utf8Length(message.content);
    if (message.role === "assistant") for (const call of message.toolCalls ?? []) bytes += utf8Length(call.name) + utf8Length(call.arguments);
  }
  if (request.tools?.length) bytes += utf8Length(JSON.stringify(request.tools));
  if (request.jsonSchema) bytes += utf8Length(JSON.stringify(request.jsonSchema.schema));
  const promptTokens = bytes + TOKENS_PER_MESSAGE * messages.length;
  const completionTokens = maxCompletionTokens(request.params) ?? DEFAULT_COMPLETION_TOKENS_ESTIMATE;
  return usageCost({ promptTokens, completionTokens, totalTokens: promptTokens + completionTokens }, price);
}

/** The call's completion limit under any of the names the providers read, when it names one. */
export function maxCompletionTokens(params: Record<string, unknown>): number | null {
  for (const name of ["max_completion_tokens", "maxCompletionTokens", "max_tokens", "maxTokens"]) {
    const value = params[name];
    if (typeof value === "number" && Number.isFinite(value) && value > 0) return value;
  }
  return null;
}

/** One priced call's hold on the run's budget, until the call ends. */
export interface CostReservation {
  /** The call succeeded and cost this much (null: the provider reported no usage, so its cost is unknown). */
  settle(actualUsd: number | null): void;
  /** The call failed: nothing is counted. */
  release(): void;
}

/**
 * A run's spending on priced model calls, against its `limits.maxCostUsd`. Executors reach it only
 * through callModel, which reserves each call's estimate before making it.
 */
export interface RunCost {
  readonly limitUsd: number | null;
  /**
   * Holds `estimateUsd` for a call of node `nodeId`, or refuses it — throwing WeftError RUN_COST_EXCEEDED
   * and stopping the run — when what the run has spent, plus what calls in flight hold, plus the estimate
   * would pass the limit.
   */
  reserve(estimateUsd: number, nodeId: string): CostReservation;
  /** True the first time a run asks about this model without a price: its COST_UNKNOWN warning is given once. */
  firstUnpriced(model: string): boolean;
  /**
   * Counts what an earlier attempt of this run spent and recorded only in events (a resumed agent's
   * replayed steps): spent, never refused, as those calls were made.
   */
  restore(spentUsd: number): void;
}

/**
 * A calling run's budget as a workflow tool's run sees it: each priced call of the called run also
 * reserves from it (in the name of the caller's node), and nothing else.
 */
export type CallerCost = Pick<RunCost, "reserve">;

const NOTHING_HELD: CostReservation = { settle: () => undefined, release: () => undefined };

/** For code that runs executors outside a run (benchmarks' reference schedulers): nothing is limited or counted. */
export const UNMETERED_COST: RunCost = { limitUsd: null, reserve: () => NOTHING_HELD, firstUnpriced: () => false, restore: () => undefined };
