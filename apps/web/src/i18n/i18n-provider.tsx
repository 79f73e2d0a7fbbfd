"use client";

import { createContext, useCallback, useContext, useEffect, useMemo, useState } from "react";
import type { ReactNode } from "react";
import type { Dictionary, Language, MessageKey, MessageVars } from "./dictionary.type";
import { LANGUAGES } from "./dictionary.type";
import { en } from "./en/index";
import { ko } from "./ko/index";
import { translate } from "./translate";

export const LANGUAGE_STORAGE_KEY = "weft.language";

const DICTIONARIES: Record<Language, Dictionary> = { en, ko };

export type Translate = (key: MessageKey, vars?: MessageVars) => string;

interface I18nValue {
  language: Language;
  setLanguage(language: Language): void;
  t: Translate;
}

const I18nContext = createContext<I18nValue | null>(null);

function isLanguage(value: string | null): value is Language {
  return value !== null && (LANGUAGES as readonly string[]).includes(value);
}

function readStoredLanguage(): Language | null {
  try {
    const stored = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : null;
  } catch {
    return null; // storage disabled: fall back to English without failing the page
  }
}

/**
 * Renders English first (the server has no access to the browser's choice) and switches to the stored
 * language after mounting, so server and client markup agree during hydration.
 */
export function I18nProvider({ children, initialLanguage }: { children: ReactNode; initialLanguage?: Language }) {
  const [language, setLanguageState] = useState<Language>(initialLanguage ?? "en");

  useEffect(() => {
    const stored = readStoredLanguage();
    if (stored) setLanguageState(stored);
  }, []);

  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  const setLanguage = useCallback((next: Language) => {
    setLanguageState(next);
    try {
      window.localStorage.setItem(LANGUAGE_STORAGE_KEY, next);
    } catch {
      // the choice still applies to this page view
    }
  }, []);

  const value = useMemo<I18nValue>(() => {
    const dictionary = DICTIONARIES[language];
    return { language, setLanguage, t: (key, vars) => translate(dictionary, key, vars) };
  }, [language, setLanguage]);

  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error("useI18n must be used inside <I18nProvider>");
  return value;
}

export function useT(): Translate {
  return useI18n().t;
}
