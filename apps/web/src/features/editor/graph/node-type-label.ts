import { defaultRegistry } from "@weft/engine";
import type { MessageKey } from "../../../i18n/dictionary.type";
import type { Translate } from "../../../i18n/i18n-provider";

const TYPE_LABEL_KEYS: Record<string, MessageKey> = {
  input: "editor.nodeType.input",
  generation: "editor.nodeType.generation",
  ensemble: "editor.nodeType.ensemble",
  validation: "editor.nodeType.validation",
  output: "editor.nodeType.output",
};

/** Translated name of a node type; types added to the registry later fall back to their own label. */
export function nodeTypeLabel(t: Translate, type: string): string {
  const key = TYPE_LABEL_KEYS[type];
  return key ? t(key) : (defaultRegistry.get(type)?.label ?? type);
}
