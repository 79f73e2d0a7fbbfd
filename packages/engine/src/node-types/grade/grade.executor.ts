import type { JsonObject } from "../../model/json-value.js";
import { jsonText } from "../../model/json-value.js";
import { openModelCall } from "../common/model-call.js";
import { emptyNodeDetails, NodeFailure } from "../../registry/node-failure.js";
import type { NodeExecutor } from "../../registry/node-type-definition.js";
import { joinValues } from "../../template/node-template.js";
import { GRADE_REPLY_SCHEMA, type GradeVerdict } from "./grade.config.js";
import { renderNodePrompt } from "../common/node-prompt.js";
import { configValue } from "../common/router-ports.js";
import { callForJson } from "../common/structured-reply.js";

export const DEFAULT_GRADE_PROMPT = "Grade the answer below.\n\n{input}";
const GRADE_INSTRUCTION =
  'Reply with one JSON object and nothing else: {"verdict": "pass" | "retry" | "fail", "score": <a number from 0 to 1>, "reason": "<why; on retry, what to change>"}';

/**
 * A model's verdict on its input (SPEC-V2 §3): `output` is `{verdict, score, reason}`, the graded value
 * passes through to the verdict's port, and on `retry` the reason is the loop's `{feedback}`. With a
 * `threshold`, the score decides pass; a pass below it becomes retry.
 */
export const executeGradeNode: NodeExecutor = async (context) => {
  const { node } = context;
  const details = emptyNodeDetails(context.inputs);
  try {
    const call = openModelCall(context, details);
    const prompt = `${renderNodePrompt(context, node.prompt ?? DEFAULT_GRADE_PROMPT, null)}\n\n${GRADE_INSTRUCTION}`;
    details.renderedPrompt = prompt;
    const graded = joinValues(context.values) ?? null;
    const reply = (await callForJson(context, call.provider, call.request(prompt, jsonText(graded)), GRADE_REPLY_SCHEMA, details)) as JsonObject;
    const score = reply.score as number;
    const reason = reply.reason as string;
    const verdict = applyThreshold(reply.verdict as GradeVerdict, score, configValue<number | null>(node, "threshold", null));
    const output = { verdict, score, reason };
    return {
      description: `${verdict} (score ${score})${reason ? `: ${reason}` : ""}`,
      output,
      value: graded,
      ports: [verdict],
      ...(verdict === "retry" ? { feedback: reason } : {}),
      details,
    };
  } catch (error) {
    throw NodeFailure.wrap(error, details);
  }
};

function applyThreshold(verdict: GradeVerdict, score: number, threshold: number | null): GradeVerdict {
  if (threshold === null) return verdict;
  if (score >= threshold) return "pass";
  return verdict === "pass" ? "retry" : verdict;
}
