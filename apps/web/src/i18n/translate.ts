import type { Dictionary, MessageKey, MessageVars } from "./dictionary.type";

/**
 * Looks a key up and fills `{name}` placeholders. A missing variable stays visible as `{name}` so a
 * forgotten argument shows up on screen instead of silently vanishing.
 */
export function translate(dictionary: Dictionary, key: MessageKey, vars?: MessageVars): string {
  const dot = key.indexOf(".");
  const namespace = key.slice(0, dot) as keyof Dictionary;
  const name = key.slice(dot + 1);
  const table = dictionary[namespace] as Record<string, string> | undefined;
  const template = table?.[name] ?? key;
  if (!vars) return template;
  return template.replace(/\{(\w+)\}/g, (whole, variable: string) =>
    variable in vars ? String(vars[variable]) : whole,
  );
}
