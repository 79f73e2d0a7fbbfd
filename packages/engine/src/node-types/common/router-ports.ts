import type { JsonValue } from "../../model/json-value.js";
import type { WorkflowNode } from "../../model/workflow.js";
import type { RouterSpec } from "../../registry/node-type-definition.js";

/** The port routers fall back to; it may stay unconnected (SPEC-V2 §5). */
export const DEFAULT_ROUTE = "default";

/** Reads a list of strings from a node's config, tolerating a config the rules have not yet accepted. */
export function configStrings(node: WorkflowNode, key: string): string[] {
  const value = node.config?.[key];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** A config field, or the fallback when absent. The rules have checked its type before any run. */
export function configValue<T = JsonValue>(node: WorkflowNode, key: string, fallback: NoInfer<T>): T {
  const value = node.config?.[key];
  return value === undefined ? fallback : (value as T);
}

/** A router whose ports never change (grade, guardrail, cache_lookup): exactly one is taken, none must be connected. */
export function fixedPorts(ports: readonly string[]): RouterSpec {
  return { ports: () => ports, requiredPorts: () => [], exclusive: () => true };
}
