import type { RetrievalResult } from "../../providers/retrieval.js";
import type { NodeExecutionContext } from "../../registry/node-type-definition.js";
import { formatContext } from "../../template/context-format.js";
import { renderTemplate, templateValuesOf } from "../../template/node-template.js";

/**
 * The prompt of a pipeline model node (llm, classify, grade, rerank, guardrail): its template over the
 * invocation's values (`{input}`, `{state.<channel>}`, `{item}`, …) and `{context}` from the retrieval,
 * in one pass. Each placeholder left empty is a WARNING, so a prompt that lost its input says so.
 */
export function renderNodePrompt(context: NodeExecutionContext, template: string, retrieval: RetrievalResult | null): string {
  const contextText = retrieval && retrieval.chunks.length > 0 ? formatContext(retrieval.chunks) : null;
  const rendered = renderTemplate(template, templateValuesOf(context, context.settings.outputFormat, contextText));
  for (const name of rendered.empty) {
    const message = `{${name}} was left empty: ${name === "context" ? "no passage was retrieved" : "it has no value in this invocation"}`;
    context.emit({ type: "WARNING", nodeId: context.node.id, code: "EMPTY_PLACEHOLDER", message });
  }
  return rendered.text;
}
