import { jsonText, type JsonValue } from "../../model/json-value.js";
import { emptyNodeDetails } from "../../registry/node-failure.js";
import type { NodeExecutor } from "../../registry/node-type-definition.js";
import { configValue } from "../common/router-ports.js";

/**
 * Combines the inputs that arrived, always in edge order, never in completion order (SPEC-V2 §4).
 * Inputs on untaken branches are simply absent.
 */
export const executeJoinNode: NodeExecutor = async (context) => {
  const combine = configValue(context.node, "combine", "concat");
  let output: JsonValue;
  if (combine === "array") output = [...context.values];
  else if (combine === "object") output = { ...context.inputsBySource };
  else output = context.values.map(jsonText).join("\n\n");
  const sources = Object.keys(context.inputsBySource);
  const description = `joined ${sources.length} input${sources.length === 1 ? "" : "s"}${sources.length > 0 ? ` (${sources.join(", ")})` : ""}`;
  return { description, output, details: emptyNodeDetails(context.inputs) };
};
