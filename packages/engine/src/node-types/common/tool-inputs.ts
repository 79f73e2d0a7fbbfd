import { WeftError } from "../../model/errors.js";
import { jsonText, type JsonValue } from "../../model/json-value.js";
import type { NodeExecutionContext } from "../../registry/node-type-definition.js";
import { joinValues } from "../../template/node-template.js";
import { runQuestionText } from "../../providers/thread-history.js";

/** The node's input as one text: one value as itself, several joined in edge order. */
export function inputText(context: NodeExecutionContext): string {
  return jsonText(joinValues(context.values) ?? "");
}

/** The run's input contents joined in input-node order: the question a pipeline was asked. */
export function runQuestion(context: NodeExecutionContext): string {
  return runQuestionText(context.runInputs);
}

/** A CEL `value` field as text (a string as itself, anything else as JSON); null when the node has no such field. */
export function expressionText(context: NodeExecutionContext, field: string): string | null {
  if (typeof context.node.config?.[field] !== "string") return null;
  return jsonText(context.evaluate(field));
}

/** The texts of a list: strings as they are, other values as JSON; blank ones dropped. */
export function textsOf(list: JsonValue): string[] {
  const items = Array.isArray(list) ? list : [list];
  return items.map(jsonText).filter((text) => text.trim() !== "");
}

/** A tool node whose provider the run was not given: an operational error naming what is missing. */
export function toolUnavailable(code: string, what: string): WeftError {
  return new WeftError(code, `${what} is not available to this run`, { audience: "operational" });
}
