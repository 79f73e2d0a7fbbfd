import { createPipelineRegistry, type NodeTypeRegistry } from "@weft/engine";

/**
 * The node types this API offers: the whole weft.workflow/v2 language (the five seed types and the
 * pipeline types). Every service reads this one registry, so `nodeTypes`, the edit checks, import,
 * validation and runs always agree. Tool node specs (SPEC-V2 §6) join here as the list's entries.
 */
export function createNodeRegistry(): NodeTypeRegistry {
  return createPipelineRegistry([]);
}
