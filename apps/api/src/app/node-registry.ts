import { BUILT_IN_NODE_TYPES, NodeTypeRegistry } from "@weft/engine";

/**
 * The node types this API offers: every built-in type, for weft.workflow/v1 and v2 documents alike.
 * Every service reads this one registry, so `nodeTypes`, the edit checks, import, validation and runs
 * always agree; a new node type joins here by joining the engine's list (docs/adding-a-node-type.md).
 */
export function createNodeRegistry(): NodeTypeRegistry {
  return new NodeTypeRegistry(BUILT_IN_NODE_TYPES);
}
