import { WeftError } from "../../model/errors.js";
import type { JsonValue } from "../../model/json-value.js";
import { emptyNodeDetails } from "../../registry/node-failure.js";
import type { NodeExecutionContext, NodeExecutor } from "../../registry/node-type-definition.js";
import { MAP_DEFAULTS } from "./map.config.js";
import { configValue } from "../common/router-ports.js";

/**
 * Runs the body once per item, up to `concurrency` at once, and outputs the item results in item order
 * (SPEC-V2 §3). Items start in index order as slots free up, so the makespan is about
 * ceil(items ÷ concurrency) × one item's time. With `onItemError: "skip"` a failed item is left out of
 * the output (a MAP_ITEM_SKIPPED warning names its index); with `fail` no further item starts and the
 * node fails with MAP_ITEM_FAILED once the items already running have ended.
 */
export const executeMapNode: NodeExecutor = async (context) => {
  const { node } = context;
  const items = context.evaluate("items");
  if (!Array.isArray(items)) {
    throw new WeftError("MAP_ITEMS_INVALID", `the items of map "${node.id}" must be a list; they are ${items === null ? "null" : typeof items}`);
  }
  const maxItems = configValue<number>(node, "maxItems", MAP_DEFAULTS.maxItems);
  if (items.length > maxItems) {
    throw new WeftError("MAP_TOO_MANY_ITEMS", `map "${node.id}" got ${items.length} items; its maxItems is ${maxItems}`);
  }
  context.emit({ type: "MAP_STARTED", nodeId: node.id, items: items.length });
  const outcome = await runItems(context, items);
  if (outcome.failure) {
    const { index, error } = outcome.failure;
    throw new WeftError("MAP_ITEM_FAILED", `item ${index} of map "${node.id}" failed: ${error.code}: ${error.message}`, { details: { index, error } });
  }
  const output = outcome.results.filter((_result, index) => !outcome.skipped.has(index));
  const skipped = outcome.skipped.size > 0 ? `; ${outcome.skipped.size} skipped` : "";
  return { description: `${output.length} of ${items.length} items${skipped}`, output, details: emptyNodeDetails(context.inputs) };
};

interface ItemsOutcome {
  results: JsonValue[];
  skipped: Set<number>;
  failure: { index: number; error: { code: string; message: string } } | null;
}

async function runItems(context: NodeExecutionContext, items: readonly JsonValue[]): Promise<ItemsOutcome> {
  const { node } = context;
  const concurrency = configValue<number>(node, "concurrency", MAP_DEFAULTS.concurrency);
  const skip = configValue(node, "onItemError", MAP_DEFAULTS.onItemError) === "skip";
  const outcome: ItemsOutcome = { results: new Array<JsonValue>(items.length).fill(null), skipped: new Set(), failure: null };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && outcome.failure === null && !context.signal.aborted) {
      const index = next++;
      const item = items[index]!;
      const result = await context.runBody({ segment: `${node.id}[${index}]`, input: item, item, index });
      if (result.ok) {
        outcome.results[index] = result.value;
        context.emit({ type: "MAP_ITEM_COMPLETED", nodeId: node.id, index });
      } else if (skip) {
        outcome.skipped.add(index);
        context.emit({ type: "WARNING", nodeId: node.id, code: "MAP_ITEM_SKIPPED", message: `item ${index} was skipped: ${result.error.code}: ${result.error.message}` });
      } else {
        outcome.failure ??= { index, error: result.error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return outcome;
}
