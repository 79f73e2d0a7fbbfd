import type { en } from "./en/index";
import type { Messages } from "./messages.type";

type English = typeof en;

/** The shape every language provides: the English namespaces with string values. */
export type Dictionary = { readonly [N in keyof English]: Messages<English[N]> };

export type Namespace = keyof English;

/** `"editor.palette.title"`: a namespace and a key of it. */
export type MessageKey = { [N in Namespace]: `${N}.${keyof English[N] & string}` }[Namespace];

export const LANGUAGES = ["en", "ko"] as const;
export type Language = (typeof LANGUAGES)[number];

export type MessageVars = Record<string, string | number>;
