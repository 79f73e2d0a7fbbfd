import { CLASSIFY_NODE_SPEC } from "../nodes/classify-node.spec.js";
import { GRADE_NODE_SPEC } from "../nodes/grade-node.spec.js";
import { JOIN_NODE_SPEC } from "../nodes/join-node.spec.js";
import { LLM_NODE_SPEC } from "../nodes/llm-node.spec.js";
import { MAP_NODE_SPEC } from "../nodes/map-node.spec.js";
import { SUBGRAPH_NODE_SPEC } from "../nodes/subgraph-node.spec.js";
import { SWITCH_NODE_SPEC } from "../nodes/switch-node.spec.js";
import { TEMPLATE_NODE_SPEC } from "../nodes/template-node.spec.js";
import { TOOL_NODE_SPECS } from "../tools/tool-node-specs.js";
import { DEFAULT_NODE_TYPE_SPECS } from "./default-registry.js";
import { NodeTypeRegistry } from "./node-type-registry.js";
import type { NodeTypeSpec } from "./node-type-spec.js";

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
