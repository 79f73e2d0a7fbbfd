"use client";

import Link from "next/link";
import { useState } from "react";
import type { FormEvent } from "react";
import { useClient, useMutation } from "urql";
import { useI18n } from "../../i18n/i18n-provider";
import { Button } from "../../ui/button";
import { useToast } from "../../ui/toast";
import { useReportOutcome } from "../../ui/user-errors";
import { downloadText, workflowFileName } from "./workflow-file";
import { DeleteWorkflowMutation, DuplicateWorkflowMutation, ExportWorkflowQuery, RenameWorkflowMutation } from "./workflows.operations";
import { formatDateTime } from "../runs/status/format-duration";

export interface WorkflowRowData {
  id: string;
  name: string;
  description: string;
  updatedAt: string;
  activeRunId?: string | null;
  /** The latest published version's number; null while none is. */
  publishedVersion: number | null;
  nodeCount: number;
  /** The MCP tool's name while the workflow opts in to /mcp (offered once a version is published); else null. */
  mcpToolName?: string | null;
}

/** One workflow with its actions; every action reports the server's refusal in a toast. */
export function WorkflowRow({ workflow, onChanged }: { workflow: WorkflowRowData; onChanged: () => void }) {
  const { t, language } = useI18n();
  const toast = useToast();
  const report = useReportOutcome();
  const client = useClient();
  const [mode, setMode] = useState<"idle" | "rename" | "confirmDelete">("idle");
  const [name, setName] = useState(workflow.name);
  const [rename, runRename] = useMutation(RenameWorkflowMutation);
  const [duplicate, runDuplicate] = useMutation(DuplicateWorkflowMutation);
  const [removal, runDelete] = useMutation(DeleteWorkflowMutation);
  const [exporting, setExporting] = useState(false);

  async function submitRename(event: FormEvent) {
    event.preventDefault();
    const result = await runRename({ id: workflow.id, name: name.trim() });
    if (report(t("workflows.failed"), { error: result.error, errors: result.data?.updateWorkflow.errors })) {
      setMode("idle");
      onChanged();
    }
  }

  async function onDuplicate() {
    const result = await runDuplicate({ id: workflow.id });
    if (report(t("workflows.failed"), { error: result.error, errors: result.data?.duplicateWorkflow.errors })) {
      toast.show({ tone: "success", message: t("workflows.duplicate.done", { name: result.data?.duplicateWorkflow.workflow?.name ?? "" }) });
      onChanged();
    }
  }

  async function onExport() {
    setExporting(true);
    const result = await client.query(ExportWorkflowQuery, { id: workflow.id }, { requestPolicy: "network-only" }).toPromise();
    setExporting(false);
    const text = result.data?.exportWorkflow;
    if (result.error || !text) {
      report(t("workflows.export.failed"), { error: result.error, errors: text ? [] : [{ code: "NOT_FOUND", message: workflow.name }] });
      return;
    }
    downloadText(workflowFileName(workflow.name), text);
  }

  async function onDelete() {
    const result = await runDelete({ id: workflow.id });
    if (report(t("workflows.failed"), { error: result.error, errors: result.data?.deleteWorkflow.errors })) {
      toast.show({ tone: "success", message: t("workflows.delete.done", { name: workflow.name }) });
      onChanged();
    }
    setMode("idle");
  }

  return (
    <tr data-testid="workflow-row" data-workflow-id={workflow.id}>
      <td>
        {mode === "rename" ? (
          <form className="row" onSubmit={submitRename}>
            <input type="text" aria-label={t("workflows.rename.label", { name: workflow.name })} value={name} autoFocus onChange={(e) => setName(e.target.value)} />
            <Button type="submit" size="sm" variant="primary" busy={rename.fetching} disabled={!name.trim() || name.trim() === workflow.name}>
              {t("workflows.rename.submit")}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => { setMode("idle"); setName(workflow.name); }}>
              {t("common.action.cancel")}
            </Button>
          </form>
        ) : (
          <div className="cell-title">
            <Link href={`/workflows/${workflow.id}`} translate="no">{workflow.name}</Link>
            {workflow.activeRunId ? <span className="badge badge--running">{t("workflows.status.running")}</span> : null}
            {workflow.publishedVersion !== null ? (
              <Link href={`/workflows/${workflow.id}/versions`} className="badge" title={t("versions.link")}>
                v{workflow.publishedVersion}
              </Link>
            ) : null}
            <Link href={`/workflows/${workflow.id}/triggers`} className="badge" data-testid="triggers-link">{t("triggers.link")}</Link>
            {workflow.mcpToolName && workflow.publishedVersion !== null ? (
              <Link href={`/workflows/${workflow.id}/triggers`} className="badge" data-testid="mcp-link" title={t("mcpTool.state.offered", { name: workflow.mcpToolName })}>
                MCP
              </Link>
            ) : null}
            {workflow.description ? <span className="cell-sub" translate="no">{workflow.description}</span> : null}
          </div>
        )}
      </td>
      <td>{workflow.nodeCount}</td>
      <td>
        <time dateTime={workflow.updatedAt}>{formatDateTime(workflow.updatedAt, language)}</time>
      </td>
      <td className="actions">
        {mode === "confirmDelete" ? (
          <span className="row row--end">
            <span>{t("workflows.delete.confirm")}</span>
            <Button size="sm" variant="danger" busy={removal.fetching} onClick={onDelete}>
              {t("workflows.delete.confirmButton")}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setMode("idle")}>
              {t("common.action.cancel")}
            </Button>
          </span>
        ) : (
          <span className="row row--end">
            <Button size="sm" onClick={() => setMode("rename")}>{t("workflows.rename.button")}</Button>
            <Button size="sm" busy={duplicate.fetching} onClick={onDuplicate}>{t("workflows.duplicate.button")}</Button>
            <Button size="sm" busy={exporting} onClick={onExport}>{t("workflows.export.button")}</Button>
            <Button size="sm" variant="danger" onClick={() => setMode("confirmDelete")}>{t("workflows.delete.button")}</Button>
          </span>
        )}
      </td>
    </tr>
  );
}
