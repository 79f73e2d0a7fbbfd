import { parseJsonWithin } from "../../limits/json-text-depth.js";
import { WeftError } from "../../model/errors.js";
import { isJsonObject, jsonText, type JsonValue } from "../../model/json-value.js";
import { emptyNodeDetails, NodeFailure } from "../../registry/node-failure.js";
import type { NodeExecutionContext, NodeExecutor } from "../../registry/node-type-definition.js";
import { joinValues, renderTemplate, templateValuesOf } from "../../template/node-template.js";
import { callTool } from "../common/tools/tool-call.js";
import { offerTools } from "../common/tools/tool-set.js";
import type { ToolSpec } from "../common/tools/tool-spec.js";
import { argumentField } from "./tool.config.js";

/**
 * The `tool` node (SPEC-V3 §3): one call of one tool with arguments from a JSON template or a CEL map,
 * no model. Output: the tool's result; the tool's failure fails the node with its code.
 */
export const executeToolNode: NodeExecutor = async (context) => {
  const { node } = context;
  const details = emptyNodeDetails(context.inputs);
  try {
    const [tool] = await offerTools(context, [node.config!["tool"] as unknown as ToolSpec]);
    if (!tool) throw new WeftError("TOOL_NOT_FOUND", `node "${node.id}" names no tool`);
    const args = toolArguments(context);
    details.renderedPrompt = JSON.stringify(args);
    const output = await callTool(context, tool, args, { nodeId: node.id, invocation: context.invocation, details });
    return { description: `${tool.definition.name} answered: ${jsonText(output).length} characters`, output, details };
  } catch (error) {
    throw NodeFailure.wrap(error, details);
  }
};

/** The arguments: the CEL map's values, the JSON template's object, or the input when it is an object. */
function toolArguments(context: NodeExecutionContext): Record<string, JsonValue> {
  const given = context.node.config?.["arguments"];
  if (typeof given === "string") {
    const rendered = renderTemplate(given, templateValuesOf(context, context.settings.outputFormat, null), "json").text;
    let value: unknown;
    try {
      value = parseJsonWithin(rendered, context.limits.maxValueDepth, "the rendered arguments");
    } catch (error) {
      if (error instanceof WeftError) throw error;
      throw new WeftError("TOOL_ARGUMENTS_INVALID", `the arguments template did not produce JSON: ${(error as Error).message}`);
    }
    return objectArguments(value as JsonValue, "the arguments template");
  }
  if (given !== undefined && isJsonObject(given)) {
    const args: Record<string, JsonValue> = {};
    for (const name of Object.keys(given)) args[name] = context.evaluate(argumentField(name));
    return args;
  }
  return objectArguments(joinValues(context.values) ?? {}, "the node's input");
}

function objectArguments(value: JsonValue, what: string): Record<string, JsonValue> {
  if (isJsonObject(value)) return value;
  throw new WeftError("TOOL_ARGUMENTS_INVALID", `${what} must be a JSON object of arguments`);
}
