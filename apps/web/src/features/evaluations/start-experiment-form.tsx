"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useMutation } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { StartExperimentMutation } from "./evaluations.operations";
import { DEFAULT_SCORERS_TEXT, readScorerList, type ScorerListReading } from "./scorer-list";
import { ScorersField } from "./scorers-field";
import { useFormErrors, UserErrorList } from "./user-error-list";

export interface DatasetChoice {
  id: string;
  name: string;
  rowCount: number;
}

interface StartExperimentFormProps {
  workflowId: string;
  datasets: readonly DatasetChoice[];
  /** Published version numbers, newest first. */
  versions: readonly number[];
  /** The version to preselect (from the versions page); null: the draft. */
  initialVersion: number | null;
}

/** The problem to show under the scorers, in the user's language; null when the text is a list. */
export function useScorerProblem(): (reading: ScorerListReading) => string | null {
  const t = useT();
  return (reading) => (reading.ok ? null : reading.problem === "notJson" ? t("evaluations.scorers.notJson", { message: reading.message ?? "" }) : t(`evaluations.scorers.${reading.problem}` as const));
}

/** Runs the draft or a published version over a dataset with the scorers and concurrency given; opens it. */
export function StartExperimentForm({ workflowId, datasets, versions, initialVersion }: StartExperimentFormProps) {
  const t = useT();
  const router = useRouter();
  const describeProblem = useScorerProblem();
  const [datasetId, setDatasetId] = useState(datasets[0]?.id ?? "");
  const [target, setTarget] = useState(initialVersion === null ? "draft" : String(initialVersion));
  const [concurrency, setConcurrency] = useState(4);
  const [scorers, setScorers] = useState(DEFAULT_SCORERS_TEXT);
  const [problem, setProblem] = useState<string | null>(null);
  const [state, start] = useMutation(StartExperimentMutation);
  const { errors, settle } = useFormErrors("evaluations.start.failed");

  async function submit(event: FormEvent) {
    event.preventDefault();
    const reading = readScorerList(scorers);
    setProblem(describeProblem(reading));
    if (!reading.ok) return;
    const which = target === "draft" ? { draft: true } : { version: Number(target) };
    const result = await start({ input: { workflowId, datasetId, scorers: reading.scorers, concurrency, ...which } });
    const experiment = result.data?.startExperiment.experiment;
    if (settle(result.error, result.data?.startExperiment.errors) && experiment) router.push(`/workflows/${workflowId}/experiments/${experiment.id}`);
  }

  return (
    <form className="card eval-form" aria-label={t("evaluations.start.title")} onSubmit={(event) => void submit(event)}>
      <h2>{t("evaluations.start.title")}</h2>
      <div className="row">
        <label className="field">
          <span>{t("evaluations.start.dataset")}</span>
          <select value={datasetId} required onChange={(event) => setDatasetId(event.target.value)}>
            {datasets.map((dataset) => (
              <option key={dataset.id} value={dataset.id} translate="no">
                {t("evaluations.start.datasetOption", { name: dataset.name, count: dataset.rowCount })}
              </option>
            ))}
          </select>
        </label>
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
      <ScorersField value={scorers} onChange={setScorers} problem={problem} />
      <div className="row">
        <Button type="submit" variant="primary" busy={state.fetching} disabled={datasetId === ""}>
          {t("evaluations.start.submit")}
        </Button>
      </div>
      <UserErrorList errors={errors} testId="start-errors" />
    </form>
  );
}
