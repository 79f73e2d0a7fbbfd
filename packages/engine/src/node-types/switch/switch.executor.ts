import { yieldIfSliceSpent } from "../../execute/turn-clock.js";
import { WeftError } from "../../model/errors.js";
import { jsonText } from "../../model/json-value.js";
import { emptyNodeDetails } from "../../registry/node-failure.js";
import type { NodeExecutor } from "../../registry/node-type-definition.js";
import { joinValues } from "../../template/node-template.js";
import { configValue, DEFAULT_ROUTE } from "../common/router-ports.js";
import { switchCases } from "./switch.config.js";

/**
 * Evaluates the cases in order (SPEC-V2 §3): `first` takes the first that holds, `all` every one that
 * holds; none → `default`, and with no edge on `default` the node fails with NO_BRANCH_MATCHED. The
 * input passes through unchanged. A condition that is not a boolean fails the node.
 */
export const executeSwitchNode: NodeExecutor = async (context) => {
  const { node } = context;
  const all = configValue(node, "mode", "first") === "all";
  const ports: string[] = [];
  for (const [k, entry] of switchCases(node).entries()) {
    // Up to 64 cases, each up to WEFT_MAX_EXPRESSION_COST: the event loop gets its turn between them when due.
    if (k > 0) await yieldIfSliceSpent();
    const holds = context.evaluate(`cases[${k}].when`);
    if (typeof holds !== "boolean") {
      throw new WeftError("EXPRESSION_FAILED", `cases[${k}].when must be true or false; it gave ${jsonText(holds).slice(0, 80)}`);
    }
    if (!holds) continue;
    ports.push(entry.port);
    if (!all) break;
  }
  if (ports.length === 0) {
    if (!context.connectedPorts.has(DEFAULT_ROUTE)) {
      throw new WeftError("NO_BRANCH_MATCHED", `no case of switch "${node.id}" holds and its default port has no edge`);
    }
    ports.push(DEFAULT_ROUTE);
  }
  const value = joinValues(context.values) ?? null;
  const description = `took ${ports.map((port) => `"${port}"`).join(", ")}`;
  return { description, output: value, ports, details: emptyNodeDetails(context.inputs) };
};
