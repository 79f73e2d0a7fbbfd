import type { MessageKey } from "../../../i18n/dictionary.type";
import type { Translate } from "../../../i18n/i18n-provider";
import { localizeViolation, type GraphNodes, type RefusalLike } from "./localize-violation";

const KNOWN_CODES = new Set([
  "INPUT_HAS_PRE", "OUTPUT_HAS_POST", "TYPE_PAIR_FORBIDDEN", "MULTIPLE_PRE", "MULTIPLE_POST", "SELF_LOOP",
  "DUPLICATE_EDGE", "CYCLE", "MISSING_PRE", "MISSING_POST", "INPUT_REQUIRED", "OUTPUT_UNIQUE",
  "LOCKED_WHILE_RUNNING", "MODEL_UNAVAILABLE", "UNKNOWN_NODE_TYPE",
]);

/**
 * A refusal as shown to people: a translated sentence for the rule, then the refusal itself in the
 * UI's language naming the exact nodes (the server's message for codes without a template).
 */
export function violationReason(t: Translate, violation: RefusalLike, graph?: GraphNodes): { title: string; detail: string } {
  const key = (KNOWN_CODES.has(violation.code) ? `editor.rule.${violation.code}` : "editor.rule.other") as MessageKey;
  return { title: t(key), detail: `${localizeViolation(t, violation, graph)} [${violation.code}]` };
}
