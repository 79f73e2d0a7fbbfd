"use client";

import { ReactFlowProvider } from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useQuery } from "urql";
import { useT } from "../../i18n/i18n-provider";
import { ErrorState, LoadingState, QueryError } from "../../ui/state-views";
import { NodeTypesProvider } from "../node-types/node-types-context";
import { EditorOptionsQuery, EditorWorkflowQuery } from "./api/editor.operations";
import type { Intensity } from "./panels/panel-options.type";
import type { EditorWorkflow } from "./workflow-editor";
import { WorkflowEditor } from "./workflow-editor";
import { toPipelineSettings } from "./pipeline/pipeline-settings";

export function WorkflowEditorPage({ workflowId }: { workflowId: string }) {
  const t = useT();
  const [workflowResult, reloadWorkflow] = useQuery({ query: EditorWorkflowQuery, variables: { id: workflowId }, requestPolicy: "network-only" });
  const [optionsResult, reloadOptions] = useQuery({ query: EditorOptionsQuery });
  const raw = workflowResult.data?.workflow;
  // The editor reads the workflow once, when it mounts; a reload (after a refused edit) remounts it
  // on the server's graph. Background refetches leave a working editor alone.
  const [generation, setGeneration] = useState(0);
  const reloadPending = useRef(false);
  // A run started elsewhere stays in the results pane after the reload, even if it ended meanwhile.
  const [followRunId, setFollowRunId] = useState<string | null>(null);
  // A redraw for a change made elsewhere keeps what was selected.
  const [selection, setSelection] = useState<readonly string[]>([]);
  const reload = useCallback(
    (runId?: string, selected?: readonly string[]) => {
      if (runId) setFollowRunId(runId);
      setSelection(selected ?? []);
      reloadPending.current = true;
      reloadWorkflow({ requestPolicy: "network-only" });
    },
    [reloadWorkflow],
  );
  useEffect(() => {
    if (reloadPending.current && raw) {
      reloadPending.current = false;
      setGeneration((value) => value + 1);
    }
  }, [raw]);

  const workflow = useMemo<EditorWorkflow | null>(() => {
    if (!raw) return null;
    return {
      id: raw.id,
      name: raw.name,
      version: raw.version,
      activeRunId: raw.activeRunId ?? null,
      publishedVersion: raw.publishedVersion?.number ?? null,
      pipeline: toPipelineSettings(raw),
      settings: {
        name: raw.name,
        description: raw.description,
        prompts: { generation: raw.prompts.generation, ensemble: raw.prompts.ensemble, validation: raw.prompts.validation },
        outputFormat: raw.outputFormat,
        knowledgeBase: raw.knowledgeBase ?? null,
        intensity: raw.intensity as Intensity,
      },
      nodes: raw.nodes,
      edges: raw.edges,
    };
  }, [raw]);

  const knowledgeBases = useMemo(() => optionsResult.data?.knowledgeBases.edges.map((edge) => edge.node) ?? [], [optionsResult.data]);

  if (workflowResult.error) return <QueryError error={workflowResult.error} onRetry={() => reloadWorkflow({ requestPolicy: "network-only" })} />;
  if (optionsResult.error) return <QueryError error={optionsResult.error} onRetry={() => reloadOptions({ requestPolicy: "network-only" })} />;
  if (workflowResult.fetching && !workflow) return <LoadingState />;
  if (!workflow) return <ErrorState message={t("editor.notFound")} />;
  if (!optionsResult.data) return <LoadingState />;

  return (
    <NodeTypesProvider>
      <ReactFlowProvider>
        <WorkflowEditor
          key={`${workflow.id}:${generation}`}
          workflow={workflow}
          providers={optionsResult.data.models}
          knowledgeBases={knowledgeBases}
          followRunId={followRunId}
          reload={reload}
          initialSelection={selection}
        />
      </ReactFlowProvider>
    </NodeTypesProvider>
  );
}
