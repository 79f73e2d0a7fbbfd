"use client";

import { useT } from "../../i18n/i18n-provider";
import { LoadingState } from "../../ui/state-views";

export function WorkflowEditorPage({ workflowId }: { workflowId: string }) {
  const t = useT();
  return (
    <div className="page" data-workflow-id={workflowId}>
      <h1>{t("editor.title")}</h1>
      <LoadingState />
    </div>
  );
}
