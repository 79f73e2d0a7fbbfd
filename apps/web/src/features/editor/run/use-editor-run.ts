"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { useClient, useMutation } from "urql";
import { useT } from "../../../i18n/i18n-provider";
import { useToast } from "../../../ui/toast";
import { useReportOutcome } from "../../../ui/user-errors";
import { isTerminalRunStatus } from "../../runs/live/run-projection";
import { CancelRunMutation } from "../../runs/runs.operations";
import { EditorRunWorkflowMutation, EditorValidateQuery } from "../api/editor.operations";
import type { WorkflowSettingsDraft } from "../panels/workflow-settings.type";
import { flaggedNodesOf, type RefusalKind, type RunRefusal } from "./results-pane";
import type { RunChoice } from "./run-bar";
import type { RunRequest } from "./run-dialog";
import { useLiveRun } from "../../runs/live/use-live-run";
import { useWorkflowLock } from "./use-workflow-lock";

interface EditorRunOptions {
  workflowId: string;
  initialActiveRunId: string | null;
  /** The run the results pane shows first: the active one, or one followed across a reload. */
  initialRunId: string | null;
  settings: WorkflowSettingsDraft;
  flag: (nodeIds: readonly string[], edgeIds: readonly string[]) => void;
  /** A run started elsewhere: the graph it runs may differ from this canvas. */
  onForeignRun: (runId: string) => void;
}

/**
 * Starting, following and cancelling a run from the editor. A run already active when the editor
 * opens (or started elsewhere) is followed too, and keeps the editor read-only until it ends.
 */
export function useEditorRun({ workflowId, initialActiveRunId, initialRunId, settings, flag, onForeignRun }: EditorRunOptions) {
  const t = useT();
  const report = useReportOutcome();
  const toast = useToast();
  const client = useClient();
  const [checking, setChecking] = useState(false);
  const [activeRunId, setActiveRunId] = useWorkflowLock(workflowId, initialActiveRunId);
  const [runId, setRunId] = useState<string | null>(initialRunId);
  const [choice, setChoice] = useState<RunChoice>({ knowledgeBase: settings.knowledgeBase, intensity: settings.intensity });
  const [refusals, setRefusals] = useState<RunRefusal[]>([]);
  // Whether the listed refusals answer a run, a check or a publish: the pane words its heading accordingly.
  const [refusalKind, setRefusalKind] = useState<RefusalKind>("run");
  const [starting, setStarting] = useState(false);
  const [, runWorkflow] = useMutation(EditorRunWorkflowMutation);
  const [, cancelRun] = useMutation(CancelRunMutation);
  const live = useLiveRun(runId);
  // Our own run's status broadcast can arrive before runWorkflow answers; it is not a foreign run.
  const startingRef = useRef(false);

  // Follow a run that another client started on this workflow, on the graph as the server has it.
  useEffect(() => {
    if (!activeRunId || activeRunId === runId || startingRef.current) return;
    setRunId(activeRunId);
    onForeignRun(activeRunId);
  }, [activeRunId, runId, onForeignRun]);

  // The run's own terminal event releases the lock even if the status broadcast was missed.
  useEffect(() => {
    if (runId && activeRunId === runId && isTerminalRunStatus(live.state.status) && live.events.length > 0) setActiveRunId(null);
  }, [activeRunId, live.events.length, live.state.status, runId, setActiveRunId]);

  /** Starts a run; true when the server accepted it. */
  const start = useCallback(async (request: RunRequest = { inputs: [], version: null, threadId: null }): Promise<boolean> => {
    setStarting(true);
    startingRef.current = true;
    setRefusals([]);
    flag([], []);
    const result = await runWorkflow({
      workflowId,
      input: {
        // The draft on the canvas, with the settings panel's prompts (saved or not), unless the dialog
        // chose a published version, which runs with its own.
        ...(request.version === null
          ? {
              draft: true,
              prompts: { generation: settings.prompts.generation ?? "", ensemble: settings.prompts.ensemble ?? "", validation: settings.prompts.validation ?? "" },
              outputFormat: settings.outputFormat,
            }
          : { version: request.version }),
        ...(request.inputs.length > 0 ? { inputs: request.inputs } : {}),
        ...(request.threadId ? { threadId: request.threadId } : {}),
        streamTokens: true,
        // "" asks explicitly for no knowledge base; null would fall back to the workflow's default.
        knowledgeBase: choice.knowledgeBase ?? "",
        intensity: choice.intensity,
      },
    });
    setStarting(false);
    startingRef.current = false;
    const payload = result.data?.runWorkflow;
    if (payload && payload.errors.length > 0) {
      setRefusalKind("run");
      setRefusals(payload.errors);
      flag(flaggedNodesOf(payload.errors), payload.errors.flatMap((e) => (e.bodyPath?.length ? [] : e.edgeIds)));
      return false;
    }
    if (!report(t("editor.run.refused"), { error: result.error }) || !payload?.run) return false;
    setRunId(payload.run.id);
    // Only a run of the draft holds the canvas; a published version runs from its own snapshot.
    if (request.version === null) setActiveRunId(payload.run.id);
    return true;
  }, [choice, flag, report, runWorkflow, setActiveRunId, settings, t, workflowId]);

  /** Every rule over the stored graph (validateWorkflow), shown like a run refusal, without running. */
  const check = useCallback(async () => {
    setChecking(true);
    const result = await client.query(EditorValidateQuery, { id: workflowId }, { requestPolicy: "network-only" }).toPromise();
    setChecking(false);
    const validation = result.data?.validateWorkflow;
    if (!report(t("editor.run.check"), { error: result.error }) || !validation) return;
    setRefusalKind("check");
    setRefusals(validation.violations);
    flag(flaggedNodesOf(validation.violations), validation.violations.flatMap((v) => (v.bodyPath?.length ? [] : v.edgeIds)));
    if (validation.valid) toast.show({ tone: "success", message: t("editor.run.checkPassed") });
  }, [client, flag, report, t, toast, workflowId]);

  /** Lists rule violations from elsewhere (a refused publish) like a refused run, and highlights them. */
  const showRefusals = useCallback(
    (kind: RefusalKind, errors: readonly RunRefusal[]) => {
      setRefusalKind(kind);
      setRefusals([...errors]);
      flag(flaggedNodesOf(errors), errors.flatMap((e) => (e.bodyPath?.length ? [] : e.edgeIds)));
    },
    [flag],
  );

  const cancel = useCallback(async () => {
    if (!activeRunId) return;
    const result = await cancelRun({ id: activeRunId });
    report(t("editor.run.cancel"), { error: result.error, errors: result.data?.cancelRun.errors });
  }, [activeRunId, cancelRun, report, t]);

  return { runId, live, locked: activeRunId !== null, choice, setChoice, refusals, refusalKind, showRefusals, starting, start, cancel, check, checking };
}
