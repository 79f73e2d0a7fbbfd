import { SEED_NODE_TYPES } from "../../model/workflow.js";
import { BUILT_IN_NODE_TYPES } from "../../node-types/built-in-node-types.js";
import { NodeTypeRegistry } from "../../registry/node-type-registry.js";

/**
 * TEST-ONLY: the registry of seed 000, its five types alone, as the oracles ran with before every later
 * type joined the one registry. Production has no such registry (v1 documents are read with the same
 * registry as v2 ones); the v1 freeze test compares the two worlds.
 */
export const seedRegistry = new NodeTypeRegistry(BUILT_IN_NODE_TYPES.filter((definition) => SEED_NODE_TYPES.includes(definition.type)));
