"use client";

import { useState, type FormEvent } from "react";
import { useMutation } from "urql";
import type { DatasetFormat } from "@/gql/graphql";
import { useT } from "@/i18n/i18n-provider";
import { useFormErrors } from "@/ui/user-errors";
import { Button } from "@/ui/button";
import { useToast } from "@/ui/toast";
import { fitsInOneRequest, formatOfFile } from "./dataset-file";
import { ImportDatasetRowsMutation } from "./evaluations.operations";
import { UserErrorList } from "./user-error-list";

interface DatasetImportFormProps {
  datasetId: string;
  /** The server's request body limit: a larger file is refused here, before it is read. */
  maxBodyBytes: number;
  onImported: () => void;
}

/**
 * Adds the rows of a JSONL or CSV file (importDatasetRows): the format from the file's name unless the
 * user picks one. The server adds every row or none; its refusals name the lines at fault.
 */
export function DatasetImportForm({ datasetId, maxBodyBytes, onImported }: DatasetImportFormProps) {
  const t = useT();
  const toast = useToast();
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<DatasetFormat | "auto">("auto");
  const [tooLarge, setTooLarge] = useState(false);
  const [state, importRows] = useMutation(ImportDatasetRowsMutation);
  const { errors, settle, clear } = useFormErrors("evaluations.import.failed");
  const chosen = format === "auto" ? (file ? formatOfFile(file.name) : null) : format;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file || !chosen) return;
    clear();
    const fits = fitsInOneRequest(file.size, maxBodyBytes);
    setTooLarge(!fits);
    if (!fits) return;
    const result = await importRows({ datasetId, format: chosen, text: await file.text() });
    const payload = result.data?.importDatasetRows;
    if (!settle(result.error, payload?.errors) || !payload) return;
    toast.show({ tone: "success", message: t("evaluations.import.done", { count: payload.added }) });
    onImported();
  }

  return (
    <form className="card eval-form" aria-label={t("evaluations.import.title")} onSubmit={(event) => void submit(event)}>
      <h2>{t("evaluations.import.title")}</h2>
      <p className="hint">{t("evaluations.import.help")}</p>
      <div className="row">
        <label className="field">
          <span>{t("evaluations.import.file")}</span>
          <input type="file" accept=".jsonl,.ndjson,.csv,text/csv,application/x-ndjson" onChange={(event) => { setFile(event.target.files?.[0] ?? null); setTooLarge(false); clear(); }} />
        </label>
        <label className="field">
          <span>{t("evaluations.import.format")}</span>
          <select value={format} onChange={(event) => setFormat(event.target.value as DatasetFormat | "auto")}>
            <option value="auto">{t("evaluations.import.formatAuto")}</option>
            <option value="JSONL">JSONL</option>
            <option value="CSV">CSV</option>
          </select>
        </label>
        <Button type="submit" variant="primary" busy={state.fetching} disabled={!file || !chosen}>
          {t("evaluations.import.submit")}
        </Button>
      </div>
      {file && !chosen ? <p className="field__error">{t("evaluations.import.pickFormat")}</p> : null}
      {tooLarge ? <p className="field__error" role="alert">{t("evaluations.import.tooLarge", { limit: Math.floor(maxBodyBytes / 1024) })}</p> : null}
      <UserErrorList errors={errors} testId="import-errors" />
    </form>
  );
}
