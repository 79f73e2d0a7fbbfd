import { CLASSIFY_NODE_SPEC } from "./classify/classify.definition.js";
import { GRADE_NODE_SPEC } from "./grade/grade.definition.js";
import { HUMAN_NODE_SPEC } from "./human/human.definition.js";
import { JOIN_NODE_SPEC } from "./join/join.definition.js";
import { LLM_NODE_SPEC } from "./llm/llm.definition.js";
import { MAP_NODE_SPEC } from "./map/map.definition.js";
import { SUBGRAPH_NODE_SPEC } from "./subgraph/subgraph.definition.js";
import { SWITCH_NODE_SPEC } from "./switch/switch.definition.js";
import { TEMPLATE_NODE_SPEC } from "./template/template.definition.js";
import { TOOL_NODE_SPECS } from "./tool-node-types.js";
import { DEFAULT_NODE_TYPE_SPECS } from "./seed-node-types.js";
import { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { NodeTypeSpec } from "../registry/node-type-definition.js";

/** The node types of SPEC-V2 §3 and the tool types of §6 (their I/O comes in as `tools` on the run), after the seed types. */
export const PIPELINE_NODE_TYPE_SPECS: readonly NodeTypeSpec[] = [
  LLM_NODE_SPEC,
  SWITCH_NODE_SPEC,
  CLASSIFY_NODE_SPEC,
  GRADE_NODE_SPEC,
  JOIN_NODE_SPEC,
  TEMPLATE_NODE_SPEC,
  MAP_NODE_SPEC,
  SUBGRAPH_NODE_SPEC,
  ...TOOL_NODE_SPECS,
  HUMAN_NODE_SPEC,
];

/**
 * Every built-in type: the seed-000 types and the pipeline types (the `weft.workflow/v2` language);
 * pass extra specs (the tool nodes) to extend it. `defaultRegistry` keeps the seed types alone, the
 * frozen v1 profile, until the API and the editor expose the pipeline types.
 */
export function createPipelineRegistry(extra: readonly NodeTypeSpec[] = []): NodeTypeRegistry {
  return new NodeTypeRegistry([...DEFAULT_NODE_TYPE_SPECS, ...PIPELINE_NODE_TYPE_SPECS, ...extra]);
}

export const pipelineRegistry: NodeTypeRegistry = createPipelineRegistry();
