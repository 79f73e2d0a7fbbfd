"use client";

import type { MessageKey } from "../../../i18n/dictionary.type";
import { useT } from "../../../i18n/i18n-provider";
import { Button } from "../../../ui/button";
import type { Intensity, KnowledgeBaseOption } from "../panels/panel-options.type";
import { INTENSITIES } from "../panels/panel-options.type";

export interface RunChoice {
  knowledgeBase: string | null;
  intensity: Intensity;
}

interface RunBarProps {
  choice: RunChoice;
  knowledgeBases: readonly KnowledgeBaseOption[];
  running: boolean;
  starting: boolean;
  checking: boolean;
  onChange: (choice: RunChoice) => void;
  onRun: () => void;
  onCancel: () => void;
  onCheck: () => void;
}

/** Starts a run with a knowledge base and intensity (the workflow's defaults preselected). */
export function RunBar({ choice, knowledgeBases, running, starting, checking, onChange, onRun, onCancel, onCheck }: RunBarProps) {
  const t = useT();
  return (
    <div className="run-bar" role="group" aria-label={t("editor.run.button")}>
      <label className="run-bar__field">
        <span>{t("editor.run.knowledgeBase")}</span>
        <select name="run-knowledge-base" aria-label={t("editor.run.knowledgeBase")} value={choice.knowledgeBase ?? ""} disabled={running} onChange={(e) => onChange({ ...choice, knowledgeBase: e.target.value || null })}>
          <option value="">{t("editor.panel.noKnowledgeBase")}</option>
          {knowledgeBases.map((kb) => (
            <option key={kb.id} value={kb.name}>
              {kb.name}
            </option>
          ))}
        </select>
      </label>
      <label className="run-bar__field">
        <span>{t("editor.run.intensity")}</span>
        <select name="run-intensity" aria-label={t("editor.run.intensity")} value={choice.intensity} disabled={running} onChange={(e) => onChange({ ...choice, intensity: e.target.value as Intensity })}>
          {INTENSITIES.map((level) => (
            <option key={level} value={level}>
              {t(`editor.intensity.${level}` as MessageKey)}
            </option>
          ))}
        </select>
      </label>
      <Button onClick={onCheck} busy={checking} title={t("editor.run.checkHelp")}>
        {t("editor.run.check")}
      </Button>
      {running ? (
        <Button variant="danger" onClick={onCancel}>
          {t("editor.run.cancel")}
        </Button>
      ) : (
        <Button variant="primary" onClick={onRun} busy={starting} title={t("editor.run.prompts")}>
          ▶ {starting ? t("editor.run.starting") : t("editor.run.button")}
        </Button>
      )}
    </div>
  );
}
