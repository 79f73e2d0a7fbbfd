/** Stable codes of the connection rules (SPEC §3, SPEC-V2 §5). Clients switch on these; never rename one. */
export const RULE_CODES = [
  "INPUT_HAS_PRE",
  "OUTPUT_HAS_POST",
  "TYPE_PAIR_FORBIDDEN",
  "MULTIPLE_PRE",
  "MULTIPLE_POST",
  "SELF_LOOP",
  "DUPLICATE_EDGE",
  "CYCLE",
  "MISSING_PRE",
  "MISSING_POST",
  "INPUT_REQUIRED",
  "OUTPUT_UNIQUE",
  "LOCKED_WHILE_RUNNING",
  "MODEL_UNAVAILABLE",
  "UNKNOWN_NODE_TYPE",
  "PORT_UNKNOWN",
  "BRANCH_UNCONNECTED",
  "LOOP_NOT_DECLARED",
  "LOOP_UNCONDITIONAL",
  "LOOP_TARGET_NOT_HEADER",
  "LOOP_NOT_REDUCIBLE",
  "LOOP_BOUND_INVALID",
  "STATE_UNKNOWN_CHANNEL",
  "STATE_WRITE_CONFLICT",
  "MAP_BODY_INVALID",
  "RUN_BUDGET_EXCEEDED",
  "EXPRESSION_INVALID",
  "PATTERN_INVALID",
  "HUMAN_ACTION_INVALID",
  "HUMAN_ACTION_DUPLICATE",
  "HUMAN_FORM_INVALID",
  "TOOL_NAME_DUPLICATE",
] as const;
export type RuleCode = (typeof RULE_CODES)[number];

/** One broken rule, with everything a UI needs to highlight it. */
export interface Violation {
  code: RuleCode;
  message: string;
  nodeIds: string[];
  edgeIds: string[];
  /**
   * Inside a map or subgraph body: the ids of the enclosing body nodes, outermost first
   * (`["perQuestion"]`); `nodeIds` and `edgeIds` are then the body's own. Absent at top level.
   */
  path?: string[];
  /** The field of the node or workflow the violation is about, e.g. `cases[1].when`, `loops[0].max`. */
  field?: string;
  /** EXPRESSION_INVALID: 0-based character offset of the error in the expression; a node type's own rules: in the field's text. */
  position?: number;
}
