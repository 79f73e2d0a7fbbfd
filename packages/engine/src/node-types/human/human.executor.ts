import { WeftError } from "../../model/errors.js";
import type { JsonObject } from "../../model/json-value.js";
import { emptyNodeDetails } from "../../registry/node-failure.js";
import type { NodeExecutor } from "../../registry/node-type-definition.js";
import { joinValues, renderTemplate, templateValuesOf } from "../../template/node-template.js";
import { humanSettings } from "./human.config.js";

/**
 * Opens a task for a person and waits for it (SPEC-V3 §2); the run holds nothing meanwhile and may be
 * continued by another process. The node completes on the port of the chosen action with output
 * `{action, data, comment, by, at}`; what flows on is its input, or with `editable` the data submitted
 * in its place. An expired task takes `onTimeout`, or fails the node with HUMAN_TIMEOUT.
 */
export const executeHumanNode: NodeExecutor = async (context) => {
  const { node } = context;
  const settings = humanSettings(node);
  const values = templateValuesOf(context, context.settings.outputFormat, null);
  const title = renderTemplate(settings.title ?? node.id, values, "text").text;
  const instructions = renderTemplate(settings.instructions, values, "text").text;
  const input = joinValues(context.values) ?? null;
  const answer = await context.openTask({ ...settings, title, instructions, input });
  const details = { ...emptyNodeDetails(context.inputs), renderedPrompt: instructions };
  if (answer.action === null) {
    throw new WeftError("HUMAN_TIMEOUT", `the task of "${node.id}" expired at ${answer.completedAt} and the node has no onTimeout action`);
  }
  const action = answer.action;
  if (!settings.actions.some((offered) => offered.id === action)) {
    throw new WeftError("HUMAN_ACTION_UNKNOWN", `"${action}" is not one of the actions of "${node.id}"`);
  }
  // An editable task closed without data (or expired) keeps the input as it was.
  const data = settings.editable && answer.data === null ? input : answer.data;
  const output: JsonObject = { action, data, comment: answer.comment, by: answer.by, at: answer.completedAt };
  const description = answer.expired ? `the task expired: took "${action}"` : `${answer.by ?? "someone"} chose "${action}"`;
  // In a loop, the comment of a choice that goes back round is the next iteration's {feedback}.
  const feedback = answer.comment ? { feedback: answer.comment } : {};
  return { description, output, value: settings.editable ? data : input, ports: [action], ...feedback, details };
};
