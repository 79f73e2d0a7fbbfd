/** Stable codes of the connection rules (SPEC §3). Clients switch on these; never rename one. */
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
] as const;
export type RuleCode = (typeof RULE_CODES)[number];

/** One broken rule, with everything a UI needs to highlight it. */
export interface Violation {
  code: RuleCode;
  message: string;
  nodeIds: string[];
  edgeIds: string[];
}
