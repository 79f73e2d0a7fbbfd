"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useMutation } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { useFormErrors } from "@/ui/user-errors";
import { Button } from "@/ui/button";
import { StartExperimentMutation } from "./evaluations.operations";
import { DEFAULT_SCORERS_TEXT } from "./scorer-list";
import { DatasetSelect, ScorersField, useScorersText, type DatasetChoice } from "./scorers-field";
import { UserErrorList } from "./user-error-list";

interface StartExperimentFormProps {
  workflowId: string;
  datasets: readonly DatasetChoice[];
  /** Published version numbers, newest first. */
  versions: readonly number[];
  /** The version to preselect (from the versions page); null: the draft. */
  initialVersion: number | null;
}

/** Runs the draft or a published version over a dataset with the scorers and concurrency given; opens it. */
export function StartExperimentForm({ workflowId, datasets, versions, initialVersion }: StartExperimentFormProps) {
  const t = useT();
  const router = useRouter();
  const [datasetId, setDatasetId] = useState(datasets[0]?.id ?? "");
  const [target, setTarget] = useState(initialVersion === null ? "draft" : String(initialVersion));
  const [concurrency, setConcurrency] = useState(4);
  const scorers = useScorersText(DEFAULT_SCORERS_TEXT);
  const [state, start] = useMutation(StartExperimentMutation);
  const { errors, settle } = useFormErrors("evaluations.start.failed");

  async function submit(event: FormEvent) {
    event.preventDefault();
    const list = scorers.read();
    if (!list) return;
    const which = target === "draft" ? { draft: true } : { version: Number(target) };
    const result = await start({ input: { workflowId, datasetId, scorers: list, concurrency, ...which } });
    const experiment = result.data?.startExperiment.experiment;
    if (settle(result.error, result.data?.startExperiment.errors) && experiment) router.push(`/workflows/${workflowId}/experiments/${experiment.id}`);
  }

  return (
    <form className="card eval-form" aria-label={t("evaluations.start.title")} onSubmit={(event) => void submit(event)}>
      <h2>{t("evaluations.start.title")}</h2>
      <div className="row">
        <DatasetSelect datasets={datasets} value={datasetId} onChange={setDatasetId} />
        <label className="field">
          <span>{t("evaluations.start.target")}</span>
          <select value={target} onChange={(event) => setTarget(event.target.value)}>
            <option value="draft">{t("evaluations.draft")}</option>
            {versions.map((number) => (
              <option key={number} value={String(number)}>
                {t("evaluations.version", { number })}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t("evaluations.start.concurrency")}</span>
          <input type="number" min={1} max={20} value={concurrency} onChange={(event) => setConcurrency(Number(event.target.value))} />
        </label>
      </div>
      <ScorersField value={scorers.text} onChange={scorers.setText} problem={scorers.problem} />
      <div className="row">
        <Button type="submit" variant="primary" busy={state.fetching} disabled={datasetId === ""}>
          {t("evaluations.start.submit")}
        </Button>
      </div>
      <UserErrorList errors={errors} testId="start-errors" />
    </form>
  );
}
