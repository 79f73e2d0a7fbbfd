import type { LlmProvider, LlmReply, LlmRequest } from "../../providers/llm-provider.js";
import { addUsage, emptyUsage } from "../../providers/llm-provider.js";
import { estimateCallCost, modelPrice, usageCost, type ModelPrice } from "../../providers/model-cost.js";
import { gateTextLength } from "../../limits/value-gate.js";
import { ProviderError, WeftError } from "../../model/errors.js";
import type { NodeExecutionContext } from "../../registry/node-type-definition.js";
import { ResultParseError } from "../../result-parser/result-parse.error.js";
import { parseResult, type ParsedResult } from "../../result-parser/result-parser.js";
import type { PartialNodeDetails } from "../../registry/node-failure.js";

/** A model node's call once opened: its provider, and the request the node's calls send. */
export interface OpenedModelCall {
  provider: LlmProvider;
  /** The node's model and params with this prompt and input, and the invocation's index (scripted replies follow it). */
  request(prompt: string, inputData: string, json?: boolean): LlmRequest;
}

/**
 * The opening of every model node's call: its provider and model resolved against the configured ones
 * (MODEL_UNAVAILABLE otherwise) and recorded in the node's details at once, so a failure further on
 * still says which model the node was to call.
 */
export function openModelCall(context: NodeExecutionContext, details: PartialNodeDetails): OpenedModelCall {
  const { node } = context;
  const provider = resolveModel(context);
  details.provider = provider.id;
  details.model = node.model ?? null;
  return {
    provider,
    request: (prompt, inputData, json = true) => ({ model: node.model!, prompt, json, params: node.params ?? {}, inputData, invocationIndex: context.invocationIndex }),
  };
}

function resolveModel({ node, llm }: NodeExecutionContext): LlmProvider {
  const provider = node.provider === undefined ? undefined : llm.get(node.provider);
  if (!provider || !node.model || !provider.models.some((model) => model.id === node.model)) {
    const configured = [...llm.keys()].join(", ") || "none";
    throw new WeftError(
      "MODEL_UNAVAILABLE",
      `node "${node.id}" uses provider "${node.provider ?? ""}" and model "${node.model ?? ""}", which are not configured (providers: ${configured})`,
      { details: { nodeIds: [node.id] } },
    );
  }
  return provider;
}

/**
 * Calls the model (with the runner's retry policy) and parses the reply. When parsing fails and parse
 * repair is on, the model is asked once more with the original prompt followed by the parser's message.
 * `details` is updated as it goes so a failure still records the raw reply, usage and retries.
 */
export async function callAndParse(
  context: NodeExecutionContext,
  provider: LlmProvider,
  request: LlmRequest,
  details: PartialNodeDetails,
): Promise<ParsedResult> {
  await callModel(context, provider, request, details);
  try {
    return parseResult(details.rawReply ?? "", context.limits.maxValueDepth);
  } catch (error) {
    if (!(error instanceof ResultParseError) || !context.settings.parseRepair) throw error;
    context.emit({
      type: "WARNING",
      nodeId: context.node.id,
      code: "PARSE_REPAIR",
      message: `asking the model once more: ${error.reason}`,
    });
    details.retries += 1;
    await callModel(context, provider, { ...request, prompt: repairPrompt(request.prompt, error) }, details);
    return parseResult(details.rawReply ?? "", context.limits.maxValueDepth);
  }
}

export function repairPrompt(prompt: string, error: ResultParseError): string {
  return (
    `${prompt}\n\n---\nYour previous reply could not be used: ${error.reason}.\n` +
    'Reply with exactly one JSON object of the form {"description": "...", "output": "..."} and nothing else.'
  );
}

/**
 * The one doorway of model calls from node executors (agents included): the run's cost budget (each
 * attempt of a priced model holds its estimate and is refused with RUN_COST_EXCEEDED when it could take
 * the run past `limits.maxCostUsd`), the runner's retries, NODE_TOKEN while streaming, usage and cost
 * added to the node's details, the reply (text and tool calls) held to a node output's limit. Returns the
 * reply, whose `toolCalls` an agent executes.
 */
export async function callModel(
  context: NodeExecutionContext,
  provider: LlmProvider,
  request: LlmRequest,
  details: PartialNodeDetails,
): Promise<LlmReply> {
  const price = modelPrice(provider, request.model);
  if (!price) warnUncounted(context, provider, request.model);
  let lastAttempt = 0;
  let reply: LlmReply;
  try {
    reply = await context.withRetries(async (attempt) => {
      lastAttempt = attempt;
      const call = { ...request, origin: { runId: context.runId, nodeId: context.node.id, invocation: context.invocation, attempt: attempt + 1 } };
      const held = price ? context.cost.reserve(estimateCallCost(call, price), context.node.id) : null;
      try {
        const answer = await (context.settings.streamTokens ? streamReply(context, provider, call) : provider.complete(call, context.signal));
        held?.settle(price && answer.usage ? usageCost(answer.usage, price) : null);
        return answer;
      } catch (error) {
        held?.release();
        throw error;
      }
    });
  } finally {
    details.retries += lastAttempt;
  }
  details.usage = addUsage(details.usage ?? emptyUsage(), reply.usage);
  if (price) addCost(context, details, reply, price);
  // A reply is stored with the node: one over a node output's limit is refused and not kept.
  gateTextLength(reply.text.length + toolCallsLength(reply), context.limits, "the model's reply");
  details.rawReply = reply.text;
  return reply;
}

function addCost(context: NodeExecutionContext, details: PartialNodeDetails, reply: LlmReply, price: ModelPrice): void {
  if (reply.usage) {
    details.costUsd = (details.costUsd ?? 0) + usageCost(reply.usage, price);
    return;
  }
  const message = `${reply.model} reported no token usage: this call's cost is not counted`;
  context.emit({ type: "WARNING", nodeId: context.node.id, code: "COST_UNKNOWN", message });
}

/** A run with a cost limit calls a model without prices: its calls are not counted (the offline test models cost nothing). */
function warnUncounted(context: NodeExecutionContext, provider: LlmProvider, model: string): void {
  if (context.cost.limitUsd === null || provider.models.find((info) => info.id === model)?.testOnly) return;
  // Once per model and run: an agent's steps and a map's items would each say it again.
  if (!context.cost.firstUnpriced(`${provider.id}/${model}`)) return;
  const message = `${provider.id}/${model} has no price: its calls are not counted against limits.maxCostUsd (set prices in WEFT_PROVIDERS_FILE)`;
  context.emit({ type: "WARNING", nodeId: context.node.id, code: "COST_UNKNOWN", message });
}

function toolCallsLength(reply: LlmReply): number {
  let length = 0;
  for (const call of reply.toolCalls ?? []) length += call.id.length + call.name.length + call.arguments.length;
  return length;
}

async function streamReply(context: NodeExecutionContext, provider: LlmProvider, request: LlmRequest): Promise<LlmReply> {
  let reply: LlmReply | null = null;
  let streamed = 0;
  for await (const chunk of provider.stream(request, context.signal)) {
    if (chunk.type === "token") {
      // Refused as it streams, not once whole: leaving the loop ends the provider's stream.
      streamed += chunk.text.length;
      gateTextLength(streamed, context.limits, "the model's reply");
      context.emit({ type: "NODE_TOKEN", nodeId: context.node.id, text: chunk.text });
    } else reply = chunk.reply;
  }
  if (!reply) {
    throw new ProviderError("PROVIDER_ERROR", `provider "${provider.id}" ended its stream without a final reply`, {
      retryable: false,
    });
  }
  return reply;
}
