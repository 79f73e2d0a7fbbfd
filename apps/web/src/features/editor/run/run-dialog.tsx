"use client";

import type { WorkflowNode } from "@weft/engine";
import { useState, type FormEvent } from "react";
import { useQuery } from "urql";
import { useT } from "../../../i18n/i18n-provider";
import { Button } from "../../../ui/button";
import { useNodeTypes } from "../../node-types/node-types-context";
import { useNodeTypeLabel } from "../../node-types/use-node-type-label";
import { WorkflowThreadsQuery } from "../../threads/threads.operations";
import { threadTitle } from "../../threads/thread-title";
import type { ProviderOption } from "../panels/panel-options.type";

/** What a run is asked to do beyond the toolbar's knowledge base and intensity. */
export interface RunRequest {
  /** The text each input node receives, by node id. */
  inputs: { nodeId: string; content: string }[];
  /** A published version to run; null runs the draft on the canvas. */
  version: number | null;
  /** A thread to continue; null lets the server decide (a new one when the workflow reads history). */
  threadId: string | null;
}

interface RunDialogProps {
  workflowId: string;
  nodes: readonly WorkflowNode[];
  providers: readonly ProviderOption[];
  publishedVersion: number | null;
  busy: boolean;
  onRun: (request: RunRequest) => void;
  onClose: () => void;
}

/** Whether a node runs on a test model (the offline echo or a scripted one), which answers from a script. */
function usesTestModel(node: WorkflowNode, providers: readonly ProviderOption[]): boolean {
  if (!node.provider || !node.model) return false;
  return providers.find((provider) => provider.id === node.provider)?.models.find((model) => model.id === node.model)?.testOnly ?? false;
}

/**
 * "Run": a field per input node (filled with what the node holds), the draft or a published version,
 * and the conversation to continue; a banner says when the answers will come from test models.
 */
export function RunDialog({ workflowId, nodes, providers, publishedVersion, busy, onRun, onClose }: RunDialogProps) {
  const t = useT();
  const nodeTypes = useNodeTypes();
  const typeLabel = useNodeTypeLabel();
  const inputs = nodes.filter((node) => nodeTypes.isSource(node.type));
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(inputs.map((node) => [node.id, node.content ?? ""])));
  const [version, setVersion] = useState<string>("draft");
  const [threadId, setThreadId] = useState<string>("");
  const [{ data }] = useQuery({ query: WorkflowThreadsQuery, variables: { workflowId, first: 20 }, requestPolicy: "network-only" });
  const threads = data?.threads.edges.map((edge) => edge.node) ?? [];
  const scripted = nodes.filter((node) => usesTestModel(node, providers));

  function submit(event: FormEvent) {
    event.preventDefault();
    onRun({
      inputs: inputs.map((node) => ({ nodeId: node.id, content: values[node.id] ?? "" })),
      version: version === "draft" ? null : Number(version),
      threadId: threadId || null,
    });
  }

  return (
    <div className="overlay" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <form className="run-dialog" role="dialog" aria-label={t("runDialog.title")} data-testid="run-dialog" onSubmit={submit} onKeyDown={(event) => event.key === "Escape" && onClose()}>
        <header className="panel__header">
          <h2>{t("runDialog.title")}</h2>
        </header>
        {scripted.length > 0 ? (
          <p className="notice notice--warning run-dialog__scripted" role="note" data-testid="scripted-banner">
            <strong>{t("runDialog.scriptedTitle")}</strong> {t("runDialog.scripted", { nodes: scripted.map((node) => node.id).join(", ") })}
          </p>
        ) : null}
        {inputs.map((node, index) => (
          <div className="field" key={node.id} data-input={node.id}>
            <label htmlFor={`run-input-${node.id}`}>
              {typeLabel(node.type)} · <code>{node.id}</code>
            </label>
            <textarea
              id={`run-input-${node.id}`}
              rows={3}
              autoFocus={index === 0}
              value={values[node.id] ?? ""}
              onChange={(event) => setValues((current) => ({ ...current, [node.id]: event.target.value }))}
            />
          </div>
        ))}
        <div className="row row--fields">
          <div className="field">
            <label htmlFor="run-version">{t("runDialog.version")}</label>
            <select id="run-version" value={version} onChange={(event) => setVersion(event.target.value)}>
              <option value="draft">{t("runDialog.draft")}</option>
              {Array.from({ length: publishedVersion ?? 0 }, (_, k) => (publishedVersion ?? 0) - k).map((number) => (
                <option key={number} value={String(number)}>
                  {t("runDialog.published", { version: number })}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="run-thread">{t("runDialog.thread")}</label>
            <select id="run-thread" value={threadId} onChange={(event) => setThreadId(event.target.value)}>
              <option value="">{t("runDialog.threadAuto")}</option>
              {threads.map((thread) => (
                <option key={thread.id} value={thread.id}>
                  {threadTitle(thread, t("threads.list.untitled"))}
                </option>
              ))}
            </select>
          </div>
        </div>
        <p className="hint">{version === "draft" ? t("editor.run.prompts") : t("runDialog.versionHelp")}</p>
        <div className="row">
          <Button type="submit" variant="primary" busy={busy} data-testid="run-dialog-start">
            ▶ {t("editor.run.button")}
          </Button>
          <Button onClick={onClose}>{t("common.action.cancel")}</Button>
        </div>
      </form>
    </div>
  );
}
