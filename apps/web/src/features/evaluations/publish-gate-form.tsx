"use client";

import { useState, type FormEvent } from "react";
import { useMutation } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { useFormErrors } from "@/ui/user-errors";
import { Button } from "@/ui/button";
import { useToast } from "@/ui/toast";
import { SetPublishGateMutation } from "./evaluations.operations";
import { DEFAULT_SCORERS_TEXT } from "./scorer-list";
import { DatasetSelect, ScorersField, useScorersText, type DatasetChoice } from "./scorers-field";
import { UserErrorList } from "./user-error-list";

interface Gate {
  datasetId: string;
  scorers: unknown;
  minMean?: number | null;
  noRegression: boolean;
}

interface PublishGateFormProps {
  workflowId: string;
  gate: Gate | null;
  datasets: readonly DatasetChoice[];
  onSaved: () => void;
}

/**
 * The workflow's publish gate (setPublishGate): publishing first runs the draft over the dataset with
 * these scorers and refuses below the minimum mean or, when asked, on a row that regressed.
 */
export function PublishGateForm({ workflowId, gate, datasets, onSaved }: PublishGateFormProps) {
  const t = useT();
  const toast = useToast();
  const [datasetId, setDatasetId] = useState(gate?.datasetId ?? datasets[0]?.id ?? "");
  const scorers = useScorersText(gate ? JSON.stringify(gate.scorers, null, 2) : DEFAULT_SCORERS_TEXT);
  const [minMean, setMinMean] = useState(gate?.minMean === null || gate?.minMean === undefined ? "" : String(gate.minMean));
  const [noRegression, setNoRegression] = useState(gate?.noRegression ?? true);
  const [state, save] = useMutation(SetPublishGateMutation);
  const { errors, settle } = useFormErrors("evaluations.gate.failed");

  async function submit(event: FormEvent) {
    event.preventDefault();
    const list = scorers.read();
    if (!list) return;
    const mean = minMean.trim() === "" ? null : Number(minMean);
    const result = await save({ workflowId, gate: { datasetId, scorers: list, minMean: mean, noRegression } });
    if (!settle(result.error, result.data?.setPublishGate.errors)) return;
    toast.show({ tone: "success", message: t("evaluations.gate.saved") });
    onSaved();
  }

  async function removeGate() {
    const result = await save({ workflowId, gate: null });
    if (!settle(result.error, result.data?.setPublishGate.errors)) return;
    toast.show({ tone: "success", message: t("evaluations.gate.removed") });
    onSaved();
  }

  return (
    <form className="card eval-form" aria-label={t("evaluations.gate.title")} onSubmit={(event) => void submit(event)}>
      <h2>{t("evaluations.gate.title")}</h2>
      <p className="hint">{gate ? t("evaluations.gate.on") : t("evaluations.gate.off")}</p>
      <div className="row">
        <DatasetSelect datasets={datasets} value={datasetId} onChange={setDatasetId} />
        <label className="field">
          <span>{t("evaluations.gate.minMean")}</span>
          <input type="number" min={0} max={1} step={0.01} value={minMean} placeholder={t("evaluations.gate.minMeanNone")} onChange={(event) => setMinMean(event.target.value)} />
        </label>
        <label className="check">
          <input type="checkbox" checked={noRegression} onChange={(event) => setNoRegression(event.target.checked)} />
          {t("evaluations.gate.noRegression")}
        </label>
      </div>
      <ScorersField value={scorers.text} onChange={scorers.setText} problem={scorers.problem} />
      <div className="row">
        <Button type="submit" variant="primary" busy={state.fetching} disabled={datasetId === ""}>
          {t("evaluations.gate.save")}
        </Button>
        {gate ? (
          <Button variant="ghost" disabled={state.fetching} onClick={() => void removeGate()}>
            {t("evaluations.gate.remove")}
          </Button>
        ) : null}
      </div>
      <UserErrorList errors={errors} testId="gate-errors" />
    </form>
  );
}
