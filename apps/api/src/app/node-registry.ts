import { BUILT_IN_NODE_TYPES, NodeTypeRegistry } from "@weft/engine";

/** Left out until the API stores the tasks of `human` steps (issue 25). */
const NOT_YET_OFFERED = "human";

/**
 * The node types this API offers: every built-in type, for weft.workflow/v1 and v2 documents alike.
 * Every service reads this one registry, so `nodeTypes`, the edit checks, import, validation and runs
 * always agree; a new node type joins here by joining the engine's list (docs/adding-a-node-type.md).
 * A workflow with a `human` step is refused with UNKNOWN_NODE_TYPE for now, rather than started as a run
 * that could never continue (the registry resolves every other type's neighbour lists without it).
 */
export function createNodeRegistry(): NodeTypeRegistry {
  return new NodeTypeRegistry(BUILT_IN_NODE_TYPES.filter((definition) => definition.type !== NOT_YET_OFFERED));
}
