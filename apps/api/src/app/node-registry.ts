import { createPipelineRegistry, NodeTypeRegistry } from "@weft/engine";

/** Left out until the API stores the tasks of `human` steps (issue 25). */
const NOT_YET_OFFERED = "human";

/**
 * The node types this API offers: the whole weft.workflow/v2 language (the five seed types and the
 * pipeline types). Every service reads this one registry, so `nodeTypes`, the edit checks, import,
 * validation and runs always agree. Tool node specs (SPEC-V2 §6) join here as the list's entries.
 * A workflow with a `human` step is refused with UNKNOWN_NODE_TYPE for now, rather than started as a run
 * that could never continue.
 */
export function createNodeRegistry(): NodeTypeRegistry {
  const offered = createPipelineRegistry([])
    .specs()
    .filter((spec) => spec.type !== NOT_YET_OFFERED)
    .map((spec) => ({ ...spec, accepts: spec.accepts.filter((type) => type !== NOT_YET_OFFERED), feeds: spec.feeds.filter((type) => type !== NOT_YET_OFFERED) }));
  return new NodeTypeRegistry(offered);
}
