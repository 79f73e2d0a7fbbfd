import type { NodeExecutor } from "../../registry/node-type-definition.js";
import { parseTextContent } from "../../result-parser/result-parser.js";
import { jsonText } from "../../model/json-value.js";
import { emptyNodeDetails } from "../../registry/node-failure.js";

/**
 * Input and output nodes (seed 000, node execution 1). The node's input is its pre-node's output, or
 * for an input node the content the run request supplied, or null; a non-null input replaces the
 * content for this run (the stored workflow is not changed). `{ description: content, output: content }`
 * then goes through the ResultParser like every other node's reply.
 */
export const executeTextNode: NodeExecutor = async (context) => {
  const { node, inputs, suppliedContent } = context;
  const value = context.suppliedValue ?? (suppliedContent === undefined && context.values.length === 1 ? context.values[0] : undefined);
  if (value !== undefined && typeof value !== "string") {
    // A JSON value (a map item, a node's structured output) passes through as itself, not as text.
    const description = jsonText(value);
    context.emit({ type: "NODE_DESCRIPTION", nodeId: node.id, description });
    return { description, output: value, details: emptyNodeDetails(inputs) };
  }
  const input = suppliedContent ?? (inputs.length > 0 ? inputs.join("\n\n") : null);
  const content = input ?? node.content ?? "";
  const parsed = parseTextContent(content);
  context.emit({ type: "NODE_DESCRIPTION", nodeId: node.id, description: parsed.description });
  return { description: parsed.description, output: parsed.output, details: emptyNodeDetails(inputs) };
};
