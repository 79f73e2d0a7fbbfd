import { z } from "zod";
import { WORKFLOW_DOCUMENT_LIMITS as LIMITS } from "../../model/workflow-document.limits.js";
import type { WorkflowNode } from "../../model/workflow.js";
import { celExpression, kind, nodeConfig, portName } from "../../registry/node-config.schema.js";

export const switchConfig = nodeConfig({
  cases: z
    .array(
      z.strictObject({
        port: portName.meta({ description: "Output port taken when the condition holds." }),
        when: celExpression.meta(kind("cel", "CEL condition over input, inputs, state, loops and run.")),
      }),
    )
    .min(1, "must hold at least one case")
    .max(LIMITS.maxPorts, `must hold at most ${LIMITS.maxPorts} cases`)
    .refine((cases) => new Set(cases.map((entry) => entry.port)).size === cases.length, "each case needs its own port")
    .meta({ description: "Cases in order; each is a port and the condition that selects it." }),
  mode: z
    .enum(["first", "all"])
    .optional()
    .meta({ description: "first (default): the first case that holds; all: every case that holds.", default: "first" }),
});

export function switchCases(node: WorkflowNode): Array<{ port: string; when: string }> {
  const cases = node.config?.cases;
  if (!Array.isArray(cases)) return [];
  return cases.flatMap((entry) =>
    entry !== null && typeof entry === "object" && !Array.isArray(entry) && typeof entry.port === "string" && typeof entry.when === "string"
      ? [{ port: entry.port, when: entry.when }]
      : [],
  );
}
