"use client";

import { threadTitle } from "./thread-title";
import Link from "next/link";
import { useQuery } from "urql";
import { useI18n } from "@/i18n/i18n-provider";
import { EmptyState, ErrorState, LoadingState, QueryError } from "@/ui/state-views";
import { formatDateTime } from "../runs/status/format-duration";
import { WorkflowThreadsQuery } from "./threads.operations";
import "../admin-pages.css";
import "./threads.css";

/** A workflow's conversations, newest first, each opening its conversation page. */
export function ThreadListPage({ workflowId }: { workflowId: string }) {
  const { t, language } = useI18n();
  const [{ data, fetching, error }, reload] = useQuery({ query: WorkflowThreadsQuery, variables: { workflowId, first: 100 }, requestPolicy: "cache-and-network" });
  if (error && !data) return <QueryError error={error} onRetry={() => reload({ requestPolicy: "network-only" })} />;
  if (!data && fetching) return <LoadingState />;
  if (!data?.workflow) return <ErrorState message={t("editor.notFound")} />;
  const threads = data.threads.edges.map((edge) => edge.node);
  return (
    <div className="page">
      <div className="page__header">
        <h1>{t("threads.list.title", { name: data.workflow.name })}</h1>
        <Link className="btn btn--primary" href={`/workflows/${workflowId}/threads/new`}>
          + {t("threads.list.new")}
        </Link>
        <Link href={`/workflows/${workflowId}`}>← {t("versions.back")}</Link>
      </div>
      {threads.length === 0 ? (
        <EmptyState>{t("threads.list.empty")}</EmptyState>
      ) : (
        <table className="table" aria-label={t("threads.list.label")}>
          <thead>
            <tr>
              <th>{t("threads.list.thread")}</th>
              <th className="num">{t("threads.list.messages")}</th>
              <th>{t("threads.list.started")}</th>
              <th>{t("threads.list.updated")}</th>
            </tr>
          </thead>
          <tbody>
            {threads.map((thread) => (
              <tr key={thread.id} data-thread-id={thread.id}>
                <td>
                  <Link href={`/threads/${thread.id}`} title={thread.id} translate="no">
                    {threadTitle(thread, t("threads.list.untitled"))}
                  </Link>{" "}
                  {thread.busy ? <span className="badge badge--running">{t("threads.busy")}</span> : null}
                </td>
                <td className="num">{thread.lastSeq}</td>
                <td className="nowrap">{formatDateTime(thread.createdAt, language)}</td>
                <td className="nowrap">{formatDateTime(thread.updatedAt, language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

