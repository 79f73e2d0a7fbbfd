import { isJsonObject, jsonText, type JsonValue } from "../../model/json-value.js";
import { callModel, openModelCall } from "../common/model-call.js";
import { emptyNodeDetails, NodeFailure } from "../../registry/node-failure.js";
import type { NodeExecutor } from "../../registry/node-type-definition.js";
import { parseJsonReply } from "../../result-parser/json-reply.parser.js";
import { joinValues } from "../../template/node-template.js";
import { renderNodePrompt } from "../common/node-prompt.js";
import { configStrings, DEFAULT_ROUTE } from "../common/router-ports.js";

export const DEFAULT_CLASSIFY_PROMPT = "Classify the input below.\n\n{input}";

/**
 * The model picks one label (SPEC-V2 §3); the input passes through to that label's port. A reply that
 * names no known label takes `default`, with a WARNING: classification is a routing decision, not a
 * reason to fail the run.
 */
export const executeClassifyNode: NodeExecutor = async (context) => {
  const { node } = context;
  const labels = configStrings(node, "labels");
  const details = emptyNodeDetails(context.inputs);
  try {
    const call = openModelCall(context, details);
    const prompt = `${renderNodePrompt(context, node.prompt ?? DEFAULT_CLASSIFY_PROMPT, null)}\n\n${instruction(labels)}`;
    details.renderedPrompt = prompt;
    const schema = { type: "object", properties: { label: { type: "string", enum: labels } }, required: ["label"], additionalProperties: false };
    const inputText = jsonText(joinValues(context.values) ?? "");
    const request = { ...call.request(prompt, inputText), jsonSchema: { name: "classification", schema, strict: true } };
    await callModel(context, call.provider, request, details);
    const label = readLabel(details.rawReply ?? "", labels);
    if (label === null) {
      const reply = JSON.stringify((details.rawReply ?? "").slice(0, 120));
      context.emit({ type: "WARNING", nodeId: node.id, code: "CLASSIFY_LABEL_UNKNOWN", message: `the reply names none of the labels (${reply}); taking "${DEFAULT_ROUTE}"` });
    }
    const port = label ?? DEFAULT_ROUTE;
    return { description: `classified as "${port}"`, output: joinValues(context.values) ?? null, ports: [port], details };
  } catch (error) {
    throw NodeFailure.wrap(error, details);
  }
};

function instruction(labels: readonly string[]): string {
  return `Answer with exactly one of these labels: ${labels.join(", ")}. Reply with one JSON object and nothing else: {"label": "<label>"}`;
}

/** `{"label": "x"}`, or the bare label (quotes and a final period tolerated), matched case-insensitively. */
function readLabel(reply: string, labels: readonly string[]): string | null {
  let candidate: JsonValue = reply.trim().replace(/^["'`]|["'`.]$/g, "");
  try {
    const parsed = parseJsonReply(reply);
    if (isJsonObject(parsed) && typeof parsed.label === "string") candidate = parsed.label;
    else if (typeof parsed === "string") candidate = parsed;
  } catch {
    // not JSON: the bare text is the candidate
  }
  const wanted = String(candidate).trim().toLowerCase();
  return labels.find((label) => label.toLowerCase() === wanted) ?? null;
}
