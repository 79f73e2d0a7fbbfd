import { jsonText } from "../../model/json-value.js";
import { emptyNodeDetails, NodeFailure } from "../../registry/node-failure.js";
import type { NodeExecutor } from "../../registry/node-type-definition.js";
import { renderTemplate, templateValuesOf } from "../../template/node-template.js";
import { openModelCall } from "../common/model-call.js";
import { renderNodePrompt } from "../common/node-prompt.js";
import { offerTools } from "../common/tools/tool-set.js";
import { agentSettings } from "./agent.config.js";
import { runAgentSteps } from "./agent-steps.js";

/** An agent without a prompt is given its input as the task. */
export const DEFAULT_AGENT_PROMPT = "{input}";

/**
 * The `agent` node (SPEC-V3 §3): renders its system prompt and task, offers its tools to the model and
 * runs the loop of agent-steps.ts. Output: the final answer (text, or with `schema` the JSON value);
 * the node run records the rendered task, the last reply and the tokens of every step.
 */
export const executeAgentNode: NodeExecutor = async (context) => {
  const { node } = context;
  const details = emptyNodeDetails(context.inputs);
  try {
    const call = openModelCall(context, details);
    const settings = agentSettings(node);
    const prompt = renderNodePrompt(context, node.prompt ?? DEFAULT_AGENT_PROMPT, null);
    const system = settings.system === null ? null : renderTemplate(settings.system, templateValuesOf(context, context.settings.outputFormat, null)).text;
    details.renderedPrompt = system === null ? prompt : `${system}\n\n---\n\n${prompt}`;
    const tools = await offerTools(context, settings.tools);
    const answer = await runAgentSteps(context, { call, prompt, system, tools, settings, details });
    const calls = answer.calls === 1 ? "1 tool call" : `${answer.calls} tool calls`;
    const steps = answer.steps === 1 ? "1 step" : `${answer.steps} steps`;
    return { description: `answered in ${steps} with ${calls}: ${jsonText(answer.output).length} characters`, output: answer.output, details };
  } catch (error) {
    throw NodeFailure.wrap(error, details);
  }
};
