"use client";

import type { Language } from "./dictionary.type";
import { LANGUAGES } from "./dictionary.type";
import { useI18n } from "./i18n-provider";

export function LanguageSwitch() {
  const { language, setLanguage, t } = useI18n();
  return (
    <label className="language-switch">
      <span className="visually-hidden">{t("common.language.label")}</span>
      <select
        aria-label={t("common.language.label")}
        value={language}
        onChange={(event) => setLanguage(event.target.value as Language)}
      >
        {LANGUAGES.map((code) => (
          <option key={code} value={code}>
            {t(`common.language.${code}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
