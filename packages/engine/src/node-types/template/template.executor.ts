import { parseJsonWithin } from "../../limits/json-text-depth.js";
import { WeftError } from "../../model/errors.js";
import type { JsonValue } from "../../model/json-value.js";
import { emptyNodeDetails } from "../../registry/node-failure.js";
import type { NodeExecutor } from "../../registry/node-type-definition.js";
import { renderTemplate, templateValuesOf } from "../../template/node-template.js";
import { configValue } from "../common/router-ports.js";

/**
 * Text or JSON from a template, no model (SPEC-V2 §3). With `json: true` every placeholder is filled
 * with its value as JSON (strings quoted), so `{"q": {item}}` is valid JSON whatever the item holds;
 * a result that still does not parse fails the node with TEMPLATE_INVALID_JSON.
 */
export const executeTemplateNode: NodeExecutor = async (context) => {
  const json = configValue(context.node, "json", false) === true;
  const values = templateValuesOf(context, context.settings.outputFormat, null);
  const rendered = renderTemplate(configValue(context.node, "template", ""), values, json ? "json" : "text");
  let output: JsonValue = rendered.text;
  if (json) {
    try {
      output = parseJsonWithin(rendered.text, context.limits.maxValueDepth, "the rendered JSON") as JsonValue;
    } catch (error) {
      if (error instanceof WeftError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new WeftError("TEMPLATE_INVALID_JSON", `the template did not produce JSON: ${reason}`);
    }
  }
  const description = json ? "rendered JSON" : `rendered ${rendered.text.length} characters`;
  return { description, output, details: { ...emptyNodeDetails(context.inputs), renderedPrompt: rendered.text } };
};
