import type { NodeTypeRegistry, WorkflowGraph } from "@weft/engine";
import type { NodeTypesById } from "./run-event-record.js";

/**
 * Node id → type for a run's graph and every body in it (map and subgraph bodies, found through the
 * registry's `body` specs). Node ids are unique across a whole workflow, so one map serves every
 * invocation of the run.
 */
export function nodeTypesOf(graph: WorkflowGraph, registry: NodeTypeRegistry): NodeTypesById {
  const types = new Map<string, string>();
  const graphs: WorkflowGraph[] = [graph];
  for (let next = graphs.pop(); next; next = graphs.pop()) {
    for (const node of next.nodes) {
      types.set(node.id, node.type);
      const body = registry.get(node.type)?.body?.graph(node);
      if (body) graphs.push(body);
    }
  }
  return types;
}
