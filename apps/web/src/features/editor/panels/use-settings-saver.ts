"use client";

import { useCallback, useRef, useState } from "react";
import { useMutation } from "urql";
import { useT } from "../../../i18n/i18n-provider";
import { useToast } from "../../../ui/toast";
import { useReportOutcome } from "../../../ui/user-errors";
import { EditorUpdateWorkflowMutation } from "../api/editor.operations";
import { sameSettings, type WorkflowSettingsDraft } from "./workflow-settings.type";
import { useTracked, type MutationTracker } from "../graph/use-workflow-sync";

/**
 * The workflow settings as saved and as being edited; the run uses the draft. `restore` saves settings
 * again (undo, redo) and brings the form along unless it holds edits of its own.
 */
export function useSettingsSaver(workflowId: string, initial: WorkflowSettingsDraft, track: MutationTracker) {
  const t = useT();
  const toast = useToast();
  const report = useReportOutcome();
  const [saved, setSavedState] = useState(initial);
  const [draft, setDraftState] = useState(initial);
  // Read by undo and redo, which run after the render that made them.
  const latest = useRef({ saved: initial, draft: initial });
  const setSaved = useCallback((next: WorkflowSettingsDraft) => {
    latest.current.saved = next;
    setSavedState(next);
  }, []);
  const setDraft = useCallback((next: WorkflowSettingsDraft) => {
    latest.current.draft = next;
    setDraftState(next);
  }, []);
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
    [report, setSaved, t, toast, update, workflowId],
  );

  const restore = useCallback(
    async (next: WorkflowSettingsDraft): Promise<boolean> => {
      const untouched = sameSettings(latest.current.draft, latest.current.saved);
      const ok = await save(next);
      if (ok && untouched) setDraft(next);
      return ok;
    },
    [save, setDraft],
  );

  /** The settings as saved now (for the undo entry of the next save). */
  const current = useCallback(() => latest.current.saved, []);

  return { saved, draft, setDraft, save, restore, current };
}
