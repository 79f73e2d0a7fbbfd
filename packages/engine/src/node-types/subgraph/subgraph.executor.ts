import { WeftError } from "../../model/errors.js";
import { emptyNodeDetails } from "../../registry/node-failure.js";
import type { NodeExecutor } from "../../registry/node-type-definition.js";
import { joinValues } from "../../template/node-template.js";

/** Runs the body once with the node's input; the body's output is the node's (SPEC-V2 §3). */
export const executeSubgraphNode: NodeExecutor = async (context) => {
  const result = await context.runBody({ segment: context.node.id, input: joinValues(context.values) ?? null });
  if (!result.ok) {
    throw new WeftError("SUBGRAPH_FAILED", `the body of subgraph "${context.node.id}" failed: ${result.error.code}: ${result.error.message}`, {
      details: { error: result.error },
    });
  }
  return { description: "ran its body", output: result.value, details: emptyNodeDetails(context.inputs) };
};
