import type { RuleCode } from "../model/violation.js";

/** When each rule is enforced (SPEC §3): refused by the edit that would break it, checked before a run, or both. */
export const RULE_TIMING: Readonly<Record<RuleCode, { edit: boolean; run: boolean }>> = {
  INPUT_HAS_PRE: { edit: true, run: false },
  OUTPUT_HAS_POST: { edit: true, run: false },
  TYPE_PAIR_FORBIDDEN: { edit: true, run: false },
  MULTIPLE_PRE: { edit: true, run: false },
  MULTIPLE_POST: { edit: true, run: false },
  SELF_LOOP: { edit: true, run: false },
  DUPLICATE_EDGE: { edit: true, run: false },
  CYCLE: { edit: true, run: false },
  MISSING_PRE: { edit: false, run: true },
  MISSING_POST: { edit: false, run: true },
  INPUT_REQUIRED: { edit: true, run: true },
  OUTPUT_UNIQUE: { edit: true, run: true },
  LOCKED_WHILE_RUNNING: { edit: true, run: false },
  MODEL_UNAVAILABLE: { edit: false, run: true },
  UNKNOWN_NODE_TYPE: { edit: true, run: true },
};
