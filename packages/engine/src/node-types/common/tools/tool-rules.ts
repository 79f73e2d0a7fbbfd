import type { JsonValue } from "../../../model/json-value.js";
import type { NodeConfigIssue } from "../../../registry/node-type-definition.js";
import { fitToolName } from "./tool-set.js";

/**
 * Rules over a node's tools beyond their schema: names known before a run (a workflow tool's `name`, a
 * knowledge base's `search_<name>`) must differ (TOOL_NAME_DUPLICATE). Names that come from a server or
 * a published workflow are checked when the node runs.
 */
export function toolRules(tools: JsonValue | undefined, field: string): NodeConfigIssue[] {
  if (!Array.isArray(tools)) return [];
  const issues: NodeConfigIssue[] = [];
  const seen = new Map<string, number>();
  tools.forEach((tool, k) => {
    const known = knownName(tool);
    if (!known) return;
    const first = seen.get(known.name);
    if (first === undefined) seen.set(known.name, k);
    else issues.push({ code: "TOOL_NAME_DUPLICATE", field: `${field}[${k}]${known.field}`, message: `names its tool "${known.name}", as ${field}[${first}] does: the model tells tools apart by name`, position: 0 });
  });
  return issues;
}

function knownName(tool: JsonValue): { name: string; field: string } | null {
  if (tool === null || typeof tool !== "object" || Array.isArray(tool)) return null;
  if ((tool["type"] === "workflow" || tool["type"] === "http") && typeof tool["name"] === "string") return { name: tool["name"], field: ".name" };
  if (tool["type"] === "retrieve" && typeof tool["knowledgeBase"] === "string") return { name: fitToolName(`search_${tool["knowledgeBase"]}`), field: ".knowledgeBase" };
  return null;
}
