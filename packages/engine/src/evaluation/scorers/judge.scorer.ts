import { abortableSleep } from "../../model/abortable-sleep.js";
import { WeftError } from "../../model/errors.js";
import type { JsonObject, JsonValue } from "../../model/json-value.js";
import { DEFAULT_RETRY_OPTIONS, withRetries } from "../../execute/retry-policy.js";
import { addUsage, emptyUsage, type LlmRequest, type TokenUsage } from "../../providers/llm-provider.js";
import { askForJson } from "../../result-parser/json-reply-repair.js";
import { comparableText } from "../output-reading.js";
import type { JudgeScorerSpec } from "../scorer-spec.js";
import type { Scorer, ScoringCase } from "./scorer.js";

/** What a judge must reply (SPEC-V3 §4), validated and repaired once like every schema reply. */
export const JUDGE_REPLY_SCHEMA = {
  type: "object",
  properties: {
    score: { type: "number", minimum: 0, maximum: 1 },
    reason: { type: "string" },
  },
  required: ["score", "reason"],
  additionalProperties: false,
} as const satisfies JsonValue;

const JUDGE_INSTRUCTION = 'Reply with one JSON object and nothing else: {"score": <a number from 0 to 1>, "reason": "<why, in one or two sentences>"}';

/**
 * A model grades the output with the scorer's rubric: any configured provider and model (the offline
 * `scripted` model in tests), the row's inputs, expected value and output in the prompt, the reply read
 * through the engine's structured-reply path (askForJson: parsed within the depth limit, checked
 * against JUDGE_REPLY_SCHEMA, asked once more when it does not parse or match). Provider calls retry as
 * a node's do.
 */
export const judgeScorer: Scorer<JudgeScorerSpec> = async (spec, scoringCase, context) => {
  const provider = context.llm.get(spec.provider);
  if (!provider) throw new WeftError("MODEL_UNAVAILABLE", `the judge's provider "${spec.provider}" is not configured`, { audience: "operational" });
  let usage: TokenUsage = emptyUsage();
  let calls = 0;
  const request: Omit<LlmRequest, "prompt"> = {
    model: spec.model,
    json: true,
    jsonSchema: { name: "grade", schema: JUDGE_REPLY_SCHEMA as unknown as Record<string, unknown>, strict: true },
    params: spec.params ?? {},
    inputData: scoringCase.output,
  };
  const retry = { options: context.retry ?? DEFAULT_RETRY_OPTIONS, sleep: context.sleep ?? abortableSleep, random: Math.random, signal: context.signal, onRetry: () => undefined };
  const ask = async (prompt: string) => {
    // The scripted test model answers by invocation: the repair is the judge's second invocation.
    const invocationIndex = calls;
    calls += 1;
    const reply = await withRetries(() => provider.complete({ ...request, prompt, invocationIndex }, context.signal), retry);
    usage = addUsage(usage, reply.usage);
    return reply.text;
  };
  const reply = (await askForJson(ask, judgePrompt(spec.rubric, scoringCase), JUDGE_REPLY_SCHEMA, { maxDepth: context.maxValueDepth, repair: context.parseRepair })) as JsonObject;
  return { score: reply.score as number, reason: reply.reason as string, usage };
};

/** The judge's prompt: the rubric, then what it grades. */
export function judgePrompt(rubric: string, { inputs, expected, output }: ScoringCase & { output: string }): string {
  const inputLines = inputs.map(({ nodeId, content }) => `[${nodeId}]\n${content}`).join("\n\n");
  const reference = expected === null ? "(none)" : comparableText(expected);
  return `You are grading the output of an LLM workflow against a rubric.\n\nRubric:\n${rubric}\n\nInput:\n${inputLines}\n\nReference answer:\n${reference}\n\nOutput to grade:\n${output}\n\n${JUDGE_INSTRUCTION}`;
}
