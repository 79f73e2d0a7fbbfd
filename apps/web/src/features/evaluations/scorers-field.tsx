"use client";

import { useId } from "react";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { addScorer, SCORER_TYPES } from "./scorer-list";

/** The scorers as a JSON list to edit, and a button per type that adds one with the settings it needs. */
export function ScorersField({ value, onChange, problem }: { value: string; onChange: (text: string) => void; problem: string | null }) {
  const t = useT();
  const id = useId();
  return (
    <div className={`field eval-scorers${problem ? " field--invalid" : ""}`}>
      <label htmlFor={id}>
        <span>{t("evaluations.scorers.label")}</span>
      </label>
      <div className="row" role="group" aria-label={t("evaluations.scorers.add")}>
        <span className="hint">{t("evaluations.scorers.add")}</span>
        {SCORER_TYPES.map((type) => (
          <Button key={type} size="sm" variant="ghost" onClick={() => onChange(addScorer(value, type))}>
            <span translate="no">{type}</span>
          </Button>
        ))}
      </div>
      <textarea id={id} className="mono" rows={6} spellCheck={false} value={value} onChange={(event) => onChange(event.target.value)} />
      <span className="hint">{t("evaluations.scorers.help")}</span>
      {problem ? <span className="field__error">{problem}</span> : null}
    </div>
  );
}
