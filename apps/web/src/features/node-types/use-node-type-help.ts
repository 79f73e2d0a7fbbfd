import { useCallback } from "react";
import { useI18n } from "../../i18n/i18n-provider";
import { NODE_TYPE_HELP_KO } from "./node-type-help.ko";

/** Korean help by field: `<type>.<path>` first, then the path, then the path's last step (a list item's field). */
export function koreanFieldHelp(type: string, path: string): string | undefined {
  const bare = path.replace(/\[\d+\]/g, "");
  return NODE_TYPE_HELP_KO.typeFields[`${type}.${bare}`] ?? NODE_TYPE_HELP_KO.fields[bare];
}

/**
 * A node type's description and its fields' help in the UI's language: the API's English, or the
 * Korean of node-type-help.ko.ts where it has an entry.
 */
export function useNodeTypeHelp() {
  const { language } = useI18n();
  const description = useCallback((type: string, english: string) => (language === "ko" ? (NODE_TYPE_HELP_KO.types[type] ?? english) : english), [language]);
  const field = useCallback((type: string, path: string, english: string) => (language === "ko" ? (koreanFieldHelp(type, path) ?? english) : english), [language]);
  return { description, field };
}
