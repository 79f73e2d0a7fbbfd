import type { Violation } from "../model/violation.js";
import type { WorkflowNode } from "../model/workflow.js";
import type { LlmProviders } from "../providers/llm-provider.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import { describeNode } from "./rule-messages.js";

/** A provider/model pair that is configured and may be named by a model node. */
export interface AvailableModel {
  provider: string;
  model: string;
}

/** The configured pairs, as data, so the rule stays pure (the API and the CLI know what is configured). */
export function availableModelsOf(providers: LlmProviders): AvailableModel[] {
  const pairs: AvailableModel[] = [];
  for (const provider of providers.values()) {
    for (const model of provider.models) pairs.push({ provider: provider.id, model: model.id });
  }
  return pairs;
}

/** MODEL_UNAVAILABLE: every node of a model-using type names a configured provider and model. O(V). */
export function checkModels(
  nodes: Iterable<WorkflowNode>,
  registry: NodeTypeRegistry,
  available: readonly AvailableModel[],
): Violation[] {
  const configured = new Map<string, Set<string>>();
  for (const pair of available) {
    const models = configured.get(pair.provider);
    if (models) models.add(pair.model);
    else configured.set(pair.provider, new Set([pair.model]));
  }
  const violations: Violation[] = [];
  for (const node of nodes) {
    if (!registry.get(node.type)?.usesModel) continue;
    const message = unavailableReason(registry, node, configured);
    if (message) violations.push({ code: "MODEL_UNAVAILABLE", message, nodeIds: [node.id], edgeIds: [] });
  }
  return violations;
}

function unavailableReason(
  registry: NodeTypeRegistry,
  node: WorkflowNode,
  configured: ReadonlyMap<string, ReadonlySet<string>>,
): string | null {
  const models = node.provider ? configured.get(node.provider) : undefined;
  if (node.model && models?.has(node.model)) return null;
  const who = describeNode(registry, node);
  if (!node.provider) return `${who} names no provider`;
  if (!node.model) return `${who} names no model`;
  if (!models) return `${who} uses provider "${node.provider}", which is not configured`;
  return `${who} uses model "${node.model}", which provider "${node.provider}" does not offer`;
}
