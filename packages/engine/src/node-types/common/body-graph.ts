import { z } from "zod";
import type { WorkflowGraph, WorkflowNode } from "../../model/workflow.js";
import { kind } from "../../registry/node-config.schema.js";

/**
 * The `body` of a map or subgraph node: an inline graph (nodes, edges, loops) with one input node and
 * one output node. The document parser reads it recursively with its own paths; the rule checker
 * validates it (MAP_BODY_INVALID lists its violations under the node's path).
 */
export const bodyField = z
  .record(z.string(), z.unknown())
  .meta(kind("graph", "The inline graph run by this node: one input node receiving the value, one output node."));

export function bodyOf(node: WorkflowNode): WorkflowGraph | null {
  const body = node.config?.body;
  if (body === null || typeof body !== "object" || Array.isArray(body)) return null;
  const graph = body as unknown as WorkflowGraph;
  return Array.isArray(graph.nodes) && Array.isArray(graph.edges) ? graph : null;
}
