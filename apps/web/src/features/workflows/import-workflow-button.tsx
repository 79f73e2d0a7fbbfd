"use client";

import { useRef } from "react";
import type { ChangeEvent } from "react";
import { useMutation } from "urql";
import { useT } from "../../i18n/i18n-provider";
import { Button } from "../../ui/button";
import { useToast } from "../../ui/toast";
import { useReportOutcome } from "../../ui/user-errors";
import { readWorkflowFile } from "./workflow-file";
import { ImportWorkflowMutation } from "./workflows.operations";

/**
 * Sends the file's text as is: the server parses and checks the document against every rule and
 * answers with each problem, so the browser does not second-guess it.
 */
export function ImportWorkflowButton({ onImported }: { onImported: (id: string) => void }) {
  const t = useT();
  const toast = useToast();
  const report = useReportOutcome();
  const input = useRef<HTMLInputElement>(null);
  const [importing, runImport] = useMutation(ImportWorkflowMutation);

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = ""; // choosing the same file again should import again
    if (!file) return;
    const read = await readWorkflowFile(file);
    if (!read.ok) {
      report(t("workflows.import.failed"), { errors: [{ code: read.code, message: read.message }] });
      return;
    }
    const result = await runImport({ document: read.text });
    const payload = result.data?.importWorkflow;
    if (!report(t("workflows.import.failed"), { error: result.error, errors: payload?.errors }) || !payload?.workflow) return;
    toast.show({ tone: "success", message: t("workflows.import.done", { name: payload.workflow.name }) });
    onImported(payload.workflow.id);
  }

  return (
    <>
      <input ref={input} type="file" accept=".json,application/json" className="visually-hidden" aria-label={t("workflows.import.label")} data-testid="import-workflow-input" onChange={onFile} />
      <Button busy={importing.fetching} onClick={() => input.current?.click()}>
        {t("workflows.import.button")}
      </Button>
    </>
  );
}
