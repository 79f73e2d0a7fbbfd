import { compileTriggerExpression, evaluateTriggerExpression, WeftError, type RunLimits, type TriggerVariables } from "@weft/engine";
import { userError } from "../../errors/user-error.type.js";
import { failure, success, type Outcome } from "../../errors/outcome.js";
import type { StoredMapping } from "./trigger-input.validation.js";

/**
 * A firing's input contents: each mapping's CEL over the request, a string as is and any other value
 * as its JSON, within the runs' limits (cost budget, depth, size). A mapping that fails (a missing field, a
 * type error, a value JSON cannot hold, a budget passed) refuses the
 * firing with EXPRESSION_FAILED naming the mapping.
 */
export function mapInputs(mappings: readonly StoredMapping[], variables: TriggerVariables, limits: RunLimits): Outcome<Record<string, string>> {
  const contents = Object.create(null) as Record<string, string>;
  for (const [index, mapping] of mappings.entries()) {
    const where = `inputs[${index}].from`;
    const compiled = compileTriggerExpression(mapping.from);
    if (!compiled.ok) return failure(userError("EXPRESSION_INVALID", `${where}: ${compiled.message}`, { field: where, position: compiled.position, nodeIds: [mapping.nodeId] }));
    try {
      const value = evaluateTriggerExpression(compiled.evaluate, variables, where, limits);
      contents[mapping.nodeId] = typeof value === "string" ? value : JSON.stringify(value);
    } catch (error) {
      if (!(error instanceof WeftError)) throw error;
      return failure(userError(error.code, error.message, { field: where, nodeIds: [mapping.nodeId] }));
    }
  }
  return success(contents);
}
