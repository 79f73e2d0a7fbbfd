"use client";

import { useEffect, useState } from "react";
import { useSubscription } from "urql";
import { RunStatusChangedSubscription } from "../../runs/runs.operations";

const ACTIVE = new Set(["QUEUED", "RUNNING"]);

/**
 * The run of the draft that holds the workflow's graph, if any: starts from the workflow's `activeRunId`
 * and follows `runStatusChanged`, so a draft run started elsewhere (another tab, the API) also makes the
 * editor read-only. Runs of published versions never hold the graph and are ignored.
 */
export function useWorkflowLock(workflowId: string, initialActiveRunId: string | null): [string | null, (runId: string | null) => void] {
  const [activeRunId, setActiveRunId] = useState(initialActiveRunId);
  const [{ data }] = useSubscription({ query: RunStatusChangedSubscription, variables: { workflowId } });

  useEffect(() => setActiveRunId(initialActiveRunId), [initialActiveRunId]);

  useEffect(() => {
    const change = data?.runStatusChanged;
    if (!change || change.workflowId !== workflowId || !change.draft) return;
    if (ACTIVE.has(change.status)) setActiveRunId(change.runId);
    else setActiveRunId((current) => (current === change.runId ? null : current));
  }, [data, workflowId]);

  return [activeRunId, setActiveRunId];
}
