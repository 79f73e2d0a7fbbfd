import { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { NodeTypeDefinition } from "../registry/node-type-definition.js";
import { AGENT_NODE_TYPE } from "./agent/agent.definition.js";
import { CACHE_LOOKUP_NODE_TYPE } from "./cache-lookup/cache-lookup.definition.js";
import { CACHE_STORE_NODE_TYPE } from "./cache-store/cache-store.definition.js";
import { CLASSIFY_NODE_TYPE } from "./classify/classify.definition.js";
import { ENSEMBLE_NODE_TYPE } from "./ensemble/ensemble.definition.js";
import { EXPAND_NODE_TYPE } from "./expand/expand.definition.js";
import { GENERATION_NODE_TYPE } from "./generation/generation.definition.js";
import { GRADE_NODE_TYPE } from "./grade/grade.definition.js";
import { GUARDRAIL_NODE_TYPE } from "./guardrail/guardrail.definition.js";
import { HISTORY_NODE_TYPE } from "./history/history.definition.js";
import { HTTP_NODE_TYPE } from "./http/http.definition.js";
import { HUMAN_NODE_TYPE } from "./human/human.definition.js";
import { INPUT_NODE_TYPE } from "./input/input.definition.js";
import { JOIN_NODE_TYPE } from "./join/join.definition.js";
import { LLM_NODE_TYPE } from "./llm/llm.definition.js";
import { MAP_NODE_TYPE } from "./map/map.definition.js";
import { OUTPUT_NODE_TYPE } from "./output/output.definition.js";
import { RERANK_NODE_TYPE } from "./rerank/rerank.definition.js";
import { RETRIEVE_NODE_TYPE } from "./retrieve/retrieve.definition.js";
import { SUBGRAPH_NODE_TYPE } from "./subgraph/subgraph.definition.js";
import { SWITCH_NODE_TYPE } from "./switch/switch.definition.js";
import { TOOL_NODE_TYPE } from "./tool/tool.definition.js";
import { TEMPLATE_NODE_TYPE } from "./template/template.definition.js";
import { VALIDATION_NODE_TYPE } from "./validation/validation.definition.js";
import { WEB_SEARCH_NODE_TYPE } from "./web-search/web-search.definition.js";

/**
 * Every built-in node type, in the order the catalogue and the editor's palette show them: the seed
 * types of SPEC §2, the pipeline types of SPEC-V2 §3, the tool types of §6, the human type of SPEC-V3 §2,
 * the agent, tool and http types of SPEC-V3 §3.
 * The one list: a new type is its folder beside this file and one line here (docs/adding-a-node-type.md).
 */
export const BUILT_IN_NODE_TYPES: readonly NodeTypeDefinition[] = [
  INPUT_NODE_TYPE,
  GENERATION_NODE_TYPE,
  ENSEMBLE_NODE_TYPE,
  VALIDATION_NODE_TYPE,
  OUTPUT_NODE_TYPE,
  LLM_NODE_TYPE,
  SWITCH_NODE_TYPE,
  CLASSIFY_NODE_TYPE,
  GRADE_NODE_TYPE,
  JOIN_NODE_TYPE,
  TEMPLATE_NODE_TYPE,
  MAP_NODE_TYPE,
  SUBGRAPH_NODE_TYPE,
  RETRIEVE_NODE_TYPE,
  EXPAND_NODE_TYPE,
  RERANK_NODE_TYPE,
  WEB_SEARCH_NODE_TYPE,
  GUARDRAIL_NODE_TYPE,
  CACHE_LOOKUP_NODE_TYPE,
  CACHE_STORE_NODE_TYPE,
  HISTORY_NODE_TYPE,
  HUMAN_NODE_TYPE,
  AGENT_NODE_TYPE,
  TOOL_NODE_TYPE,
  HTTP_NODE_TYPE,
];

/**
 * A registry of the built-in types, for `weft.workflow/v1` and `/v2` documents alike (a v1 document
 * still holds only the seed types: its parser says so); pass extra definitions to extend it.
 */
export function createBuiltInRegistry(extra: readonly NodeTypeDefinition[] = []): NodeTypeRegistry {
  return new NodeTypeRegistry([...BUILT_IN_NODE_TYPES, ...extra]);
}

/** The registry every host passes when it has no types of its own: the API, the CLI, the editor. */
export const builtInRegistry: NodeTypeRegistry = createBuiltInRegistry();
