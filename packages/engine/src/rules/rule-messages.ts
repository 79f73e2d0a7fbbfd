import type { CountRule } from "../registry/node-type-definition.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { WorkflowNode } from "../model/workflow.js";

/** Human sentences for violations. They name node ids and types so a message stands on its own. */

export function withArticle(word: string): string {
  return /^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`;
}

export function typeLabel(registry: NodeTypeRegistry, type: string): string {
  return registry.get(type)?.label ?? type;
}

/** `generation node "g1"` */
export function describeNode(registry: NodeTypeRegistry, node: WorkflowNode): string {
  return `${typeLabel(registry, node.type)} node "${node.id}"`;
}

/** `"a", "b" or "c"` style list of quoted ids. */
export function quoteList(ids: readonly string[]): string {
  return ids.map((id) => `"${id}"`).join(", ");
}

/** `input, generation or ensemble` */
export function orList(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? "no";
  return `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`;
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** `at least 1`, `exactly 1`, `between 1 and 3`, `at most 2` */
export function describeBounds(bounds: { min: number; max: number }): string {
  if (bounds.min === bounds.max) return `exactly ${bounds.min}`;
  if (bounds.max === Infinity) return `at least ${bounds.min}`;
  if (bounds.min === 0) return `at most ${bounds.max}`;
  return `between ${bounds.min} and ${bounds.max}`;
}

export function describeCount(registry: NodeTypeRegistry, type: string, rule: CountRule): string {
  const noun = `${typeLabel(registry, type)} node`;
  const limit = describeBounds(rule);
  return `a workflow needs ${limit} ${rule.min === 1 && rule.max === 1 ? noun : `${noun}s`}`;
}

/** `validation "v1" → ensemble "e1" → validation "v1"` */
export function describePath(registry: NodeTypeRegistry, path: readonly WorkflowNode[]): string {
  return path.map((node) => `${typeLabel(registry, node.type)} "${node.id}"`).join(" → ");
}
