import type { NodeTypeRegistry } from "../registry/node-type-registry.js";
import type { DocumentIssue } from "./document-issue.js";
import { formatPath } from "./document-issue.js";
import { checkParams } from "./params-limits.check.js";
import type { DocumentNode, WorkflowDocumentShape } from "./workflow-document.schema.js";
import type { WorkflowDocumentLimits } from "../model/workflow-document.limits.js";

const ATTRIBUTE_KEYS = ["content", "provider", "model", "params", "prompt"] as const;

/**
 * What the shape of a `weft.workflow/v1` document cannot say: ids are unique, types are registered and
 * of seed 000 (the only ones v1 holds, whatever else the registry has), each node's attributes suit its
 * type, edges join existing nodes, and every model type has a prompt. One pass over nodes and edges.
 */
export function checkReferences(
  document: WorkflowDocumentShape,
  registry: NodeTypeRegistry,
  limits: WorkflowDocumentLimits,
): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  const nodeIndex = new Map<string, number>();
  document.nodes.forEach((node, k) => {
    const earlier = nodeIndex.get(node.id);
    if (earlier !== undefined) {
      issues.push({ code: "DUPLICATE_NODE_ID", path: `nodes[${k}].id`, message: `node id "${node.id}" is already used by nodes[${earlier}]` });
    } else {
      nodeIndex.set(node.id, k);
    }
    issues.push(...checkNode(node, k, registry, limits));
  });
  const edgeIndex = new Map<string, number>();
  document.edges.forEach((edge, k) => {
    for (const end of ["source", "target"] as const) {
      if (!nodeIndex.has(edge[end])) {
        issues.push({ code: "EDGE_NODE_MISSING", path: `edges[${k}].${end}`, message: `no node has id "${edge[end]}"` });
      }
    }
    if (edge.id === undefined) return;
    const earlier = edgeIndex.get(edge.id);
    if (earlier !== undefined) {
      issues.push({ code: "DUPLICATE_EDGE_ID", path: `edges[${k}].id`, message: `edge id "${edge.id}" is already used by edges[${earlier}]` });
    } else {
      edgeIndex.set(edge.id, k);
    }
  });
  issues.push(...checkPrompts(document.prompts, registry));
  return issues;
}

/** The types a v1 document may name: the registry's seed types (SPEC-V2 §1, v1 is frozen). */
function seedDefinitions(registry: NodeTypeRegistry) {
  return registry.definitions().filter((definition) => registry.isSeedType(definition.type));
}

function checkNode(node: DocumentNode, k: number, registry: NodeTypeRegistry, limits: WorkflowDocumentLimits): DocumentIssue[] {
  const spec = registry.isSeedType(node.type) ? registry.get(node.type) : undefined;
  if (!spec) {
    const known = seedDefinitions(registry).map((definition) => definition.type);
    const message = `unknown node type "${node.type}"; known types: ${known.join(", ")}`;
    return [{ code: "UNKNOWN_NODE_TYPE", path: `nodes[${k}].type`, message }];
  }
  const attributes: Record<string, unknown> = {};
  for (const key of ATTRIBUTE_KEYS) if (node[key] !== undefined) attributes[key] = node[key];
  const parsed = spec.attributes.safeParse(attributes);
  const issues: DocumentIssue[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === "unrecognized_keys") {
        for (const key of issue.keys) {
          issues.push({ code: "FIELD_UNKNOWN", path: formatPath(["nodes", k, key]), message: `${spec.label} nodes take no "${key}"` });
        }
      } else {
        issues.push({ code: "FIELD_INVALID", path: formatPath(["nodes", k, ...issue.path]), message: issue.message });
      }
    }
  }
  if (node.params) {
    const problem = checkParams(node.params, ["nodes", k, "params"], limits);
    if (problem) issues.push(problem);
  }
  return issues;
}

function checkPrompts(prompts: Record<string, string>, registry: NodeTypeRegistry): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  const modelTypes = seedDefinitions(registry).filter((spec) => spec.usesModel);
  for (const spec of modelTypes) {
    if (prompts[spec.type] === undefined) {
      issues.push({ code: "PROMPT_MISSING", path: formatPath(["prompts", spec.type]), message: `the prompt for ${spec.label} nodes is missing` });
    }
  }
  for (const key of Object.keys(prompts)) {
    if (!modelTypes.some((spec) => spec.type === key)) {
      const known = modelTypes.map((spec) => spec.type).join(", ");
      issues.push({ code: "FIELD_UNKNOWN", path: formatPath(["prompts", key]), message: `"${key}" is not a model node type; prompts are keyed by ${known}` });
    }
  }
  return issues;
}
