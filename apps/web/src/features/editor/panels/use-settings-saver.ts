"use client";

import { useCallback, useState } from "react";
import { useMutation } from "urql";
import { useT } from "../../../i18n/i18n-provider";
import { useToast } from "../../../ui/toast";
import { useReportOutcome } from "../../../ui/user-errors";
import { EditorUpdateWorkflowMutation } from "../api/editor.operations";
import type { WorkflowSettingsDraft } from "./workflow-settings.type";
import { useTracked, type MutationTracker } from "../graph/use-workflow-sync";

/** The workflow settings as saved and as being edited; the run uses the draft. */
export function useSettingsSaver(workflowId: string, initial: WorkflowSettingsDraft, track: MutationTracker) {
  const t = useT();
  const toast = useToast();
  const report = useReportOutcome();
  const [saved, setSaved] = useState(initial);
  const [draft, setDraft] = useState(initial);
  const update = useTracked(useMutation(EditorUpdateWorkflowMutation)[1], track);

  const save = useCallback(
    async (next: WorkflowSettingsDraft): Promise<boolean> => {
      const result = await update({
        id: workflowId,
        input: {
          name: next.name.trim(),
          description: next.description,
          prompts: { generation: next.prompts.generation ?? "", ensemble: next.prompts.ensemble ?? "", validation: next.prompts.validation ?? "" },
          outputFormat: next.outputFormat,
          knowledgeBase: next.knowledgeBase,
          intensity: next.intensity,
        },
      });
      if (!report(t("editor.refused.edit"), { error: result.error, errors: result.data?.updateWorkflow.errors })) return false;
      setSaved(next);
      toast.show({ tone: "success", message: t("editor.saved") });
      return true;
    },
    [report, t, toast, update, workflowId],
  );

  return { saved, draft, setDraft, save };
}
