"use client";

import type { LoopDeclaration, StateChannel, WorkflowLimits } from "@weft/engine";
import { useCallback } from "react";
import { useT } from "../../../i18n/i18n-provider";
import { useToast } from "../../../ui/toast";
import type { WorkflowSettingsDraft } from "../panels/workflow-settings.type";
import type { PipelineSettings } from "../pipeline/pipeline-settings";
import type { SettingsOutcome } from "../pipeline/use-pipeline-settings";
import { settingsEntry, type HistoryEntry, type SettingsState } from "./edit-history";

type PipelineInput = { loops?: LoopDeclaration[]; state?: Record<string, StateChannel>; limits?: WorkflowLimits };

interface SettingsEditsOptions {
  /** The settings panel's saver (use-settings-saver.ts). */
  settings: { current: () => WorkflowSettingsDraft; save: (next: WorkflowSettingsDraft) => Promise<boolean>; restore: (next: WorkflowSettingsDraft) => Promise<boolean> };
  /** The loops, state channels and limits (use-pipeline-settings.ts). */
  pipeline: { current: () => PipelineSettings; save: (input: PipelineInput) => Promise<SettingsOutcome> };
  record: (entry: HistoryEntry) => void;
}

/**
 * The workflow's settings (the panel shown with nothing selected: name, prompts, knowledge base, …, and
 * the loops, state channels and limits) saved as undoable edits, as the node form's saves are: each save
 * is recorded with what it replaced, and undo and redo save those again through the same mutations.
 */
export function useSettingsEdits({ settings, pipeline, record }: SettingsEditsOptions) {
  const t = useT();
  const toast = useToast();
  const before = useCallback(() => ({ workflow: settings.current(), pipeline: pipeline.current() }), [settings, pipeline]);

  const saveWorkflow = useCallback(
    async (next: WorkflowSettingsDraft): Promise<boolean> => {
      const was = before();
      const ok = await settings.save(next);
      if (ok) record(settingsEntry(was, { workflow: next }, t("canvas.history.settings")));
      return ok;
    },
    [before, record, settings, t],
  );

  const savePipeline = useCallback(
    async (input: PipelineInput): Promise<SettingsOutcome> => {
      const was = before();
      const outcome = await pipeline.save(input);
      if (outcome.ok) record(settingsEntry(was, { pipeline: input }, t("canvas.history.settings")));
      return outcome;
    },
    [before, pipeline, record, t],
  );

  /** Saves recorded settings again (undo, redo); false when the server refused them (said in a toast). */
  const apply = useCallback(
    async (state: SettingsState): Promise<boolean> => {
      if (state.workflow && !(await settings.restore(state.workflow))) return false;
      if (!state.pipeline) return true;
      const outcome = await pipeline.save(state.pipeline);
      if (outcome.ok) return true;
      const message = outcome.errors.map((error) => `${error.message} [${error.code}]`).join("\n") || (outcome.transport ?? "");
      toast.show({ tone: "error", title: t("editor.refused.edit"), message });
      return false;
    },
    [pipeline, settings, t, toast],
  );

  return { saveWorkflow, savePipeline, apply };
}
