import { z } from "zod";
import type { JsonValue } from "../../model/json-value.js";
import type { WorkflowNode } from "../../model/workflow.js";
import { kind, nodeConfig, templateText } from "../../registry/node-config.schema.js";
import { jsonSchemaField } from "../common/json-schema-field.js";
import { TOOL_LIMITS, toolSpec, type ToolSpec } from "../common/tools/tool-spec.js";

/** SPEC-V3 §3: an agent takes 8 steps unless told otherwise, 50 at most. */
export const AGENT_STEPS = Object.freeze({ default: 8, min: 1, max: 50 });

export const agentConfig = nodeConfig({
  system: templateText.optional().meta(kind("template", "The system prompt: who the agent is and how it works, with placeholders ({input}, {state.<channel>}, …).")),
  tools: z
    .array(toolSpec)
    .max(TOOL_LIMITS.maxToolsPerNode, `must hold at most ${TOOL_LIMITS.maxToolsPerNode} tools`)
    .optional()
    .meta({ description: "The tools the model may call: {type: workflow | mcp | retrieve | http, …}." }),
  maxSteps: z
    .int()
    .min(AGENT_STEPS.min)
    .max(AGENT_STEPS.max)
    .optional()
    .meta({ description: "Model calls at most; a model still calling tools at the last one fails the node with AGENT_STEPS_EXHAUSTED.", default: AGENT_STEPS.default }),
  schema: jsonSchemaField
    .optional()
    .meta(kind("jsonSchema", "JSON Schema of the final answer: it must be JSON that matches, and the model is told what is wrong until it is.")),
});

/** An agent node's settings with the defaults applied; the config passed its schema before any run. */
export interface AgentSettings {
  system: string | null;
  tools: ToolSpec[];
  maxSteps: number;
  schema: JsonValue | undefined;
}

export function agentSettings(node: WorkflowNode): AgentSettings {
  const config = node.config ?? {};
  return {
    system: typeof config["system"] === "string" ? config["system"] : null,
    tools: Array.isArray(config["tools"]) ? (config["tools"] as unknown as ToolSpec[]) : [],
    maxSteps: typeof config["maxSteps"] === "number" ? config["maxSteps"] : AGENT_STEPS.default,
    schema: config["schema"],
  };
}
