import { z } from "zod";
import { formatPath } from "../../document/document-issue.js";
import { WORKFLOW_DOCUMENT_LIMITS as LIMITS } from "../../model/workflow-document.limits.js";
import type { WorkflowNode } from "../../model/workflow.js";
import { celExpression, kind, nodeConfig, templateText } from "../../registry/node-config.schema.js";
import type { NodeExpression } from "../../registry/node-type-definition.js";
import { toolSpec } from "../common/tools/tool-spec.js";

/** A tool node's CEL map takes as many arguments as a node has ports: a tool's parameters, not data. */
export const MAX_TOOL_ARGUMENTS = LIMITS.maxPorts;

export const toolNodeConfig = nodeConfig({
  tool: toolSpec.meta({ description: "The tool to call: {type: workflow | mcp | retrieve | http, …}; an mcp tool names one tool of its server." }),
  arguments: z
    .union([
      templateText.meta(kind("template", "A JSON template of the arguments: placeholders are filled with JSON values ({input}, {input.<id>}, {state.<channel>}, …).")),
      z
        .record(z.string().min(1).max(LIMITS.maxIdLength), celExpression)
        .refine((map) => Object.keys(map).length <= MAX_TOOL_ARGUMENTS, { message: `must hold at most ${MAX_TOOL_ARGUMENTS} arguments` })
        .meta({ description: "One CEL expression per argument (input, inputs, state, run.inputs, …)." }),
    ])
    .optional()
    .meta({ description: "The call's arguments: a JSON template, or a map of CEL expressions. Default: the node's input when it is a JSON object." }),
}).superRefine((config, context) => {
  if (config.tool.type === "mcp" && config.tool.tool === undefined) {
    context.addIssue({ code: "custom", path: ["tool", "tool"], message: "a tool node calls one tool: name one of the server's tools" });
  }
});

/** The field of one argument's CEL expression (`arguments.query`, `arguments["a b"]`). */
export function argumentField(name: string): string {
  return formatPath(["arguments", name]);
}

/** The CEL expressions of a map of arguments, one per argument. */
export function argumentExpressions(node: WorkflowNode): NodeExpression[] {
  const map = node.config?.["arguments"];
  if (map === null || typeof map !== "object" || Array.isArray(map)) return [];
  return Object.entries(map).flatMap(([name, source]) => (typeof source === "string" ? [{ field: argumentField(name), source, kind: "value" as const }] : []));
}
