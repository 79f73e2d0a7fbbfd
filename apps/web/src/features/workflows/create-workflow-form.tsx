"use client";

import { useState } from "react";
import type { FormEvent } from "react";
import { useMutation } from "urql";
import { useT } from "../../i18n/i18n-provider";
import { Button } from "../../ui/button";
import { useToast } from "../../ui/toast";
import { useReportOutcome } from "../../ui/user-errors";
import { CreateWorkflowMutation } from "./workflows.operations";

/** A new workflow starts as input → output (the server builds it); the editor opens on it. */
export function CreateWorkflowForm({ onCreated }: { onCreated: (id: string) => void }) {
  const t = useT();
  const toast = useToast();
  const report = useReportOutcome();
  const [name, setName] = useState("");
  const [creation, create] = useMutation(CreateWorkflowMutation);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const result = await create({ input: { name: name.trim() } });
    const payload = result.data?.createWorkflow;
    if (!report(t("workflows.failed"), { error: result.error, errors: payload?.errors }) || !payload?.workflow) return;
    toast.show({ tone: "success", message: t("workflows.create.done", { name: payload.workflow.name }) });
    setName("");
    onCreated(payload.workflow.id);
  }

  return (
    <form className="create-form row" onSubmit={submit}>
      <label className="create-form__field">
        <span className="visually-hidden">{t("workflows.create.name")}</span>
        <input type="text" name="workflow-name" aria-label={t("workflows.create.name")} placeholder={t("workflows.create.placeholder")} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <Button type="submit" variant="primary" busy={creation.fetching} disabled={!name.trim()}>
        + {t("workflows.create.button")}
      </Button>
    </form>
  );
}
