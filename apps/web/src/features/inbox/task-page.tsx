"use client";

import Link from "next/link";
import { useQuery } from "urql";
import { useI18n } from "@/i18n/i18n-provider";
import { MarkdownText, RichValue } from "@/ui/rich-value";
import { EmptyState, LoadingState, QueryError } from "@/ui/state-views";
import { formatDateTime } from "../runs/status/format-duration";
import { HumanTaskQuery } from "./inbox.operations";
import { TaskAnswer } from "./task-answer";
import "../admin-pages.css";
import "./inbox.css";

/** One task: what to review and the instructions; while it is open, its form and actions; else its outcome. */
export function TaskPage({ taskId }: { taskId: string }) {
  const { t, language } = useI18n();
  const [{ data, fetching, error }, refetch] = useQuery({ query: HumanTaskQuery, variables: { id: taskId } });
  const reload = () => refetch({ requestPolicy: "network-only" });
  const task = data?.humanTask;
  if (error) return <QueryError error={error} onRetry={reload} />;
  if (fetching && !data) return <LoadingState />;
  if (!task) return <EmptyState action={<Link href="/inbox">{t("inbox.task.back")}</Link>}>{t("inbox.task.notFound")}</EmptyState>;
  const status = t(`inbox.status.${task.status}`);
  return (
    <div className="page task-page">
      <div className="page__header">
        <h1>{task.title}</h1>
        <span className="badge">{status}</span>
      </div>
      <p className="hint">
        <Link href="/inbox">{t("inbox.task.back")}</Link> · <Link href={`/runs/${task.runId}`}>{t("inbox.task.run")}</Link> ·{" "}
        {t("inbox.task.node", { node: task.invocation ? `${task.nodeId} (${task.invocation})` : task.nodeId })}
        {task.assignee ? ` · ${t("inbox.col.assignee")}: ${task.assignee}` : ""}
        {task.expiresAt ? ` · ${t("inbox.col.expires")}: ${formatDateTime(task.expiresAt, language)}` : ""}
      </p>
      {task.instructions ? (
        <div className="task-page__instructions">
          <MarkdownText text={task.instructions} />
        </div>
      ) : null}
      <section className="task-card">
        <h2>{t("inbox.task.input")}</h2>
        <RichValue value={task.input} />
      </section>
      {task.status === "OPEN" ? (
        <TaskAnswer task={task} onCompleted={reload} />
      ) : (
        <section className="task-card">
          <p>
            {task.status === "COMPLETED" || task.status === "EXPIRED"
              ? t("inbox.task.completed", { action: task.action ?? "—", by: task.completedBy ?? "—", at: formatDateTime(task.completedAt, language) })
              : t("inbox.task.closed", { status })}
          </p>
          {task.comment ? <p>{task.comment}</p> : null}
          {task.data !== null && task.data !== undefined ? (
            <>
              <h2>{t("inbox.task.data")}</h2>
              <RichValue value={task.data} />
            </>
          ) : null}
        </section>
      )}
    </div>
  );
}
