"use client";

import { useId, useState } from "react";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { SCORER_TYPES } from "@weft/engine";
import { addScorer, readScorerList } from "./scorer-list";

export interface DatasetChoice {
  id: string;
  name: string;
  rowCount: number;
}

/**
 * The scorers' text of a form, and `read`: the list to send, or null after showing (in the user's
 * language) why the text is not a list.
 */
export function useScorersText(initial: string) {
  const t = useT();
  const [text, setText] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const read = (): unknown[] | null => {
    const reading = readScorerList(text);
    if (reading.ok) {
      setProblem(null);
      return reading.scorers;
    }
    setProblem(reading.problem === "notJson" ? t("evaluations.scorers.notJson", { message: reading.message ?? "" }) : t(`evaluations.scorers.${reading.problem}` as const));
    return null;
  };
  return { text, setText, problem, read };
}

/** A dataset to run on, by name and size. */
export function DatasetSelect({ datasets, value, onChange }: { datasets: readonly DatasetChoice[]; value: string; onChange: (id: string) => void }) {
  const t = useT();
  return (
    <label className="field">
      <span>{t("evaluations.start.dataset")}</span>
      <select value={value} required onChange={(event) => onChange(event.target.value)}>
        {datasets.map((dataset) => (
          <option key={dataset.id} value={dataset.id} translate="no">
            {t("evaluations.start.datasetOption", { name: dataset.name, count: dataset.rowCount })}
          </option>
        ))}
      </select>
    </label>
  );
}

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
