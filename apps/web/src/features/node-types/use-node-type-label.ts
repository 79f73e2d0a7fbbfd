import { useCallback, useContext } from "react";
import type { MessageKey } from "../../i18n/dictionary.type";
import { useT } from "../../i18n/i18n-provider";
import { NodeTypesContext } from "./node-types-context";

/** Every built-in type's translated name (a test checks none is missing). */
export const TYPE_LABEL_KEYS: Record<string, MessageKey> = {
  input: "editor.nodeType.input",
  generation: "editor.nodeType.generation",
  ensemble: "editor.nodeType.ensemble",
  validation: "editor.nodeType.validation",
  output: "editor.nodeType.output",
  llm: "pipeline.type.llm",
  switch: "pipeline.type.switch",
  classify: "pipeline.type.classify",
  grade: "pipeline.type.grade",
  join: "pipeline.type.join",
  template: "pipeline.type.template",
  map: "pipeline.type.map",
  subgraph: "pipeline.type.subgraph",
  retrieve: "pipeline.type.retrieve",
  expand: "pipeline.type.expand",
  rerank: "pipeline.type.rerank",
  web_search: "pipeline.type.web_search",
  guardrail: "pipeline.type.guardrail",
  cache_lookup: "pipeline.type.cache_lookup",
  cache_store: "pipeline.type.cache_store",
  history: "pipeline.type.history",
  human: "pipeline.type.human",
  agent: "pipeline.type.agent",
  tool: "pipeline.type.tool",
  http: "pipeline.type.http",
};

/**
 * The translated name of a node type. A type without a translation shows the label the API's
 * `nodeTypes` gives it, so a type added on the server is named without a change here.
 */
export function useNodeTypeLabel(): (type: string) => string {
  const t = useT();
  const catalogue = useContext(NodeTypesContext);
  return useCallback(
    (type: string) => {
      const key = TYPE_LABEL_KEYS[type];
      return key ? t(key) : (catalogue?.get(type)?.label ?? type);
    },
    [catalogue, t],
  );
}
