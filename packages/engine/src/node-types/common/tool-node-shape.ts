import type { WorkflowNode } from "../../model/workflow.js";
import type { NodeExpression, NodeTypeDefinition } from "../../registry/node-type-definition.js";

/** Neighbours and degrees every tool node shares (SPEC-V2 §6): any type but output in, anything out. */
export const TOOL_SHAPE = {
  component: "ToolNode",
  accepts: [],
  acceptsAnyExcept: ["output"],
  feeds: [],
  feedsAnyExcept: [],
  inDegree: { min: 1, max: Infinity },
  outDegree: { min: 1, max: Infinity },
} as const satisfies Partial<NodeTypeDefinition>;

/** A definition's `expressions`: the one CEL field of the config, when the node has it. */
export function celField(field: string, kind: NodeExpression["kind"]) {
  return (node: WorkflowNode): NodeExpression[] => {
    const source = node.config?.[field];
    return typeof source === "string" ? [{ field, source, kind }] : [];
  };
}
