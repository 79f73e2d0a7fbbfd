import { isAbortError, WeftError } from "../../model/errors.js";
import type { RetrievalResult } from "../../providers/retrieval.js";
import type { NodeExecutionContext, NodeExecutor } from "../../registry/node-type-definition.js";
import { formatContext } from "../../template/context-format.js";
import { renderPrompt, type PromptPlaceholder } from "../../template/prompt-template.js";
import { callAndParse, openModelCall } from "./model-call.js";
import { emptyNodeDetails, NodeFailure } from "../../registry/node-failure.js";
import { FALLBACK_PROMPT } from "../../execute/run-settings.js";

/**
 * Generation, ensemble and validation nodes (SPEC §4): input_data from the pre-node outputs in edge
 * order, optional knowledge-base context, one-pass prompt rendering, an LLM call in JSON mode, the
 * ResultParser. Every failure carries what the node had recorded so far.
 */
export const executeModelNode: NodeExecutor = async (context) => {
  const { node } = context;
  const details = emptyNodeDetails(context.inputs);
  try {
    const { provider } = openModelCall(context, details);
    const inputData = context.inputs.join("\n\n");
    const retrieval = await retrieveContext(context, inputData);
    details.context = retrieval?.chunks ?? [];
    details.store = retrieval?.store ?? null;
    const prompt = renderNodePrompt(context, inputData, retrieval);
    details.renderedPrompt = prompt;
    // Seed 000's request, as it always was: no invocationIndex (offline scripted replies take their first).
    const request = { model: node.model!, prompt, json: true, params: node.params ?? {}, inputData };
    const parsed = await callAndParse(context, provider, request, details);
    context.emit({ type: "NODE_DESCRIPTION", nodeId: node.id, description: parsed.description });
    return { description: parsed.description, output: parsed.output, details };
  } catch (error) {
    throw NodeFailure.wrap(error, details);
  }
};

export async function retrieveContext(
  context: NodeExecutionContext,
  inputData: string,
  knowledgeBase: string | null = context.settings.knowledgeBase,
  topK: number = context.settings.topK,
): Promise<RetrievalResult | null> {
  if (!knowledgeBase) return null;
  if (!context.retriever) {
    throw new WeftError("RETRIEVAL_FAILED", `knowledge base "${knowledgeBase}" was requested but no retriever is configured`, {
      audience: "operational",
    });
  }
  try {
    return await context.retriever.retrieve(knowledgeBase, inputData, topK, context.signal);
  } catch (error) {
    if (isAbortError(error) || (error instanceof WeftError && error.code === "KNOWLEDGE_BASE_NOT_FOUND")) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new WeftError("RETRIEVAL_FAILED", `searching knowledge base "${knowledgeBase}" failed: ${reason}`, {
      audience: "operational",
      cause: error,
    });
  }
}

function renderNodePrompt(context: NodeExecutionContext, inputData: string, retrieval: RetrievalResult | null): string {
  const { node, settings } = context;
  let template = settings.prompt;
  if (template.trim() === "") {
    template = FALLBACK_PROMPT;
    context.emit({
      type: "WARNING",
      nodeId: node.id,
      code: "DEFAULT_PROMPT",
      message: `no prompt is set for node "${node.id}" or for "${node.type}" nodes; the built-in default prompt was used`,
    });
  }
  const contextText = retrieval && retrieval.chunks.length > 0 ? formatContext(retrieval.chunks) : null;
  const rendered = renderPrompt(template, {
    input_data: inputData,
    context: contextText,
    output_format: settings.outputFormat,
  }, context.limits.maxNodeOutputBytes);
  for (const placeholder of rendered.emptyPlaceholders) {
    // No knowledge base chosen: an empty {context} is what the user asked for (the default prompts hold
    // {context} for when one is chosen), so only a search that found nothing is worth a warning.
    if (placeholder === "context" && !retrieval) continue;
    context.emit({
      type: "WARNING",
      nodeId: node.id,
      code: "EMPTY_PLACEHOLDER",
      message: `{${placeholder}} was left empty: ${emptyReason(placeholder, context)}`,
    });
  }
  return rendered.text;
}

function emptyReason(placeholder: PromptPlaceholder, context: NodeExecutionContext): string {
  if (placeholder === "input_data") return "the node's inputs are empty";
  if (placeholder === "output_format") return "no output format is set";
  return `the search of knowledge base "${context.settings.knowledgeBase}" returned no passages`;
}
