"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useClient, useMutation, useQuery } from "urql";
import type { VersionRowFieldsFragment } from "@/gql/graphql";
import { useI18n } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { ErrorState, LoadingState, QueryError } from "@/ui/state-views";
import { useToast } from "@/ui/toast";
import { useReportOutcome } from "@/ui/user-errors";
import { downloadText, workflowFileName } from "../workflows/workflow-file";
import { ExportWorkflowQuery } from "../workflows/workflows.operations";
import { CompareChooser } from "./compare-chooser";
import { RunVersionMutation, WorkflowVersionsQuery } from "./versions.operations";
import "../admin-pages.css";
import "./versions.css";
import { formatDateTime } from "../runs/status/format-duration";

const PAGE_SIZE = 50;

/** A workflow's published versions, newest first, with the draft above them. */
export function VersionsPage({ workflowId }: { workflowId: string }) {
  const { t } = useI18n();
  const [first, setFirst] = useState(PAGE_SIZE);
  const [{ data, fetching, error }, reload] = useQuery({ query: WorkflowVersionsQuery, variables: { id: workflowId, first }, requestPolicy: "cache-and-network" });
  const workflow = data?.workflow;

  if (error && !workflow) return <QueryError error={error} onRetry={() => reload({ requestPolicy: "network-only" })} />;
  if (!data && fetching) return <LoadingState />;
  if (!workflow) return <ErrorState message={t("editor.notFound")} />;

  const versions = workflow.versions.edges.map((edge) => edge.node);
  const latest = workflow.publishedVersion?.number ?? null;
  return (
    <div className="page">
      <div className="page__header">
        <h1>{t("versions.title", { name: workflow.name })}</h1>
        <Link href={`/workflows/${workflowId}`}>← {t("versions.back")}</Link>
      </div>
      {versions.length > 1 || (versions.length === 1 && latest !== null) ? (
        <CompareChooser workflowId={workflowId} numbers={versions.map((version) => version.number)} />
      ) : null}
      <table className="table" aria-label={t("versions.link")}>
        <thead>
          <tr>
            <th>{t("versions.col.version")}</th>
            <th>{t("versions.col.note")}</th>
            <th>{t("versions.col.publishedBy")}</th>
            <th>{t("versions.col.publishedAt")}</th>
            <th>{t("versions.col.hash")}</th>
            <th>{t("versions.col.actions")}</th>
          </tr>
        </thead>
        <tbody>
          <tr className="row--muted" data-version="draft">
            <td>
              <span className="badge">{t("versions.draft")}</span>
            </td>
            <td colSpan={4}>{t("versions.draftRow", { edit: workflow.version })}</td>
            <td className="actions">
              <Link className="btn btn--sm" href={`/workflows/${workflowId}`}>
                {t("versions.back")}
              </Link>
            </td>
          </tr>
          {versions.map((version, index) => (
            <VersionRow key={version.id} workflowId={workflowId} workflowName={workflow.name} version={version} latest={version.number === latest} previous={versions[index + 1]?.number ?? null} />
          ))}
        </tbody>
      </table>
      {versions.length === 0 ? <p className="muted">{t("versions.list.empty")}</p> : null}
      <div className="list-footer">
        <span>{t(workflow.versions.totalCount === 1 ? "versions.list.countOne" : "versions.list.count", { count: workflow.versions.totalCount })}</span>
        {workflow.versions.pageInfo.hasNextPage ? (
          <Button size="sm" onClick={() => setFirst((n) => Math.min(n + PAGE_SIZE, 100))} disabled={first >= 100}>
            {t("versions.list.loadMore")}
          </Button>
        ) : null}
      </div>
    </div>
  );
}

function VersionRow({ workflowId, workflowName, version, latest, previous }: { workflowId: string; workflowName: string; version: VersionRowFieldsFragment; latest: boolean; previous: number | null }) {
  const { t, language } = useI18n();
  const router = useRouter();
  const client = useClient();
  const toast = useToast();
  const report = useReportOutcome();
  const [running, runVersion] = useMutation(RunVersionMutation);
  const [exporting, setExporting] = useState(false);

  async function onRun() {
    const result = await runVersion({ workflowId, version: version.number });
    const payload = result.data?.runWorkflow;
    if (!report(t("versions.run.refused"), { error: result.error, errors: payload?.errors }) || !payload?.run) return;
    toast.show({ tone: "success", message: t("versions.run.started", { number: version.number }) });
    router.push(`/runs/${payload.run.id}`);
  }

  async function onExport() {
    setExporting(true);
    const result = await client.query(ExportWorkflowQuery, { id: workflowId, version: version.number }, { requestPolicy: "network-only" }).toPromise();
    setExporting(false);
    const text = result.data?.exportWorkflow;
    if (!report(t("versions.export.failed"), { error: result.error }) || !text) return;
    downloadText(workflowFileName(`${workflowName}-v${version.number}`), text);
  }

  return (
    <tr data-version={version.number}>
      <td className="nowrap">
        <strong>v{version.number}</strong> {latest ? <span className="badge badge--completed">{t("versions.latest")}</span> : null}
      </td>
      <td>{version.note ? version.note : <span className="muted">{t("versions.noNote")}</span>}</td>
      <td>{version.publishedBy ?? t("versions.noPublisher")}</td>
      <td className="nowrap">
        <time dateTime={version.publishedAt}>{formatDateTime(version.publishedAt, language)}</time>
      </td>
      <td className="mono" title={version.contentHash}>
        {version.contentHash.slice(0, 10)}
      </td>
      <td className="actions">
        <span className="row row--end">
        <Link className="btn btn--sm" href={`/workflows/${workflowId}/compare?from=${version.number}`}>
          {t("versions.action.compareDraft")}
        </Link>
        {previous !== null ? (
          <Link className="btn btn--sm" href={`/workflows/${workflowId}/compare?from=${previous}&to=${version.number}`}>
            {t("versions.action.comparePrevious", { number: previous })}
          </Link>
        ) : null}
        <Button size="sm" busy={running.fetching} onClick={() => void onRun()}>
          ▶ {t("versions.action.run")}
        </Button>
        <Link className="btn btn--sm" href={`/runs?workflow=${workflowId}&version=${version.number}`}>
          {t("versions.action.runs")}
        </Link>
        <Link className="btn btn--sm" href={`/workflows/${workflowId}/experiments?version=${version.number}`}>
          {t("evaluations.versionLink")}
        </Link>
        <Button size="sm" busy={exporting} onClick={() => void onExport()}>
          {t("versions.action.export")}
        </Button>
        </span>
      </td>
    </tr>
  );
}
