"use client";

import Link from "next/link";
import { useState } from "react";
import { useQuery } from "urql";
import type { HumanTaskStatus } from "@/gql/graphql";
import { useI18n } from "@/i18n/i18n-provider";
import { useSocketFeed } from "@/lib/use-socket-feed";
import { Button } from "@/ui/button";
import { EmptyState, LoadingState, QueryError } from "@/ui/state-views";
import { formatDateTime } from "../runs/status/format-duration";
import { HumanTasksChangedSubscription, HumanTasksQuery } from "./inbox.operations";
import "../admin-pages.css";

const STATUSES: readonly HumanTaskStatus[] = ["OPEN", "COMPLETED", "EXPIRED", "CANCELLED"];

/** The tasks people are asked to do (open ones first, by default), kept current by humanTasksChanged. */
export function InboxPage() {
  const { t, language } = useI18n();
  const [status, setStatus] = useState<HumanTaskStatus>("OPEN");
  const [assignee, setAssignee] = useState("");
  const [after, setAfter] = useState<string | null>(null);
  const variables = { status: [status], assignee: assignee.trim() === "" ? null : assignee.trim(), after };
  const [{ data, fetching, error }, refetch] = useQuery({ query: HumanTasksQuery, variables });
  const reload = () => refetch({ requestPolicy: "network-only" });
  useSocketFeed(HumanTasksChangedSubscription, {}, { onData: reload, onConnected: reload });
  const tasks = data?.humanTasks.edges.map((edge) => edge.node) ?? [];
  return (
    <div className="page">
      <div className="page__header">
        <h1>{t("inbox.title")}</h1>
      </div>
      <p className="hint">{t("inbox.intro")}</p>
      <div className="filters" role="search">
        <label className="field">
          <span>{t("inbox.filter.status")}</span>
          <select value={status} onChange={(event) => { setStatus(event.target.value as HumanTaskStatus); setAfter(null); }}>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {t(`inbox.status.${value}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t("inbox.filter.assignee")}</span>
          <input value={assignee} placeholder={t("inbox.filter.anyone")} onChange={(event) => { setAssignee(event.target.value); setAfter(null); }} />
        </label>
      </div>
      {error ? (
        <QueryError error={error} onRetry={reload} />
      ) : fetching && !data ? (
        <LoadingState />
      ) : tasks.length === 0 ? (
        <EmptyState>{t("inbox.empty")}</EmptyState>
      ) : (
        <table className="table" aria-label={t("inbox.title")}>
          <thead>
            <tr>
              <th>{t("inbox.col.title")}</th>
              <th>{t("inbox.col.assignee")}</th>
              <th>{t("inbox.col.created")}</th>
              <th>{t("inbox.col.expires")}</th>
              <th>{t("inbox.col.status")}</th>
            </tr>
          </thead>
          <tbody>
            {tasks.map((task) => (
              <tr key={task.id}>
                <td>
                  <Link href={`/inbox/${task.id}`}>{task.title}</Link>
                </td>
                <td>{task.assignee ?? "—"}</td>
                <td>{formatDateTime(task.createdAt, language)}</td>
                <td>{task.expiresAt ? formatDateTime(task.expiresAt, language) : t("inbox.never")}</td>
                <td>{t(`inbox.status.${task.status}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data?.humanTasks.pageInfo.hasNextPage ? <Button onClick={() => setAfter(data.humanTasks.pageInfo.endCursor ?? null)}>{t("inbox.more")}</Button> : null}
    </div>
  );
}
