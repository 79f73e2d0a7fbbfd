"use client";

import Link from "next/link";
import { useI18n } from "@/i18n/i18n-provider";
import type { RunStatusValue } from "../live/run-projection";
import { StatusBadge } from "../status/status-badge";
import { RunVersionLabel } from "../status/run-version-label";
import { elapsedMs, formatDateTime, formatDuration } from "../status/format-duration";

export interface RunListItem {
  id: string;
  workflowId: string;
  /** As the run started (the run's snapshot): true after the workflow is renamed. */
  workflowName: string;
  /** The published version it executed; null for a run of the draft. */
  version: number | null;
  status: RunStatusValue;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  totalTokens: number;
}

export function RunRow({ run, now }: { run: RunListItem; now: number }) {
  const { t, language } = useI18n();
  const duration =
    run.finishedAt || run.durationMs !== null
      ? formatDuration(run.durationMs ?? elapsedMs(run.startedAt, run.finishedAt, now))
      : run.startedAt
        ? t("runs.duration.running")
        : "—";
  return (
    <tr data-run-id={run.id}>
      <td>
        <StatusBadge status={run.status} />
      </td>
      <td>
        <Link href={`/workflows/${run.workflowId}`} translate="no">{run.workflowName || run.workflowId.slice(0, 8)}</Link>
      </td>
      <td data-testid="run-version">
        <RunVersionLabel workflowId={run.workflowId} version={run.version} />
      </td>
      <td>
        <Link href={`/runs/${run.id}`} className="mono">
          {run.id.slice(0, 8)}
        </Link>
      </td>
      <td className="nowrap">{formatDateTime(run.startedAt ?? run.createdAt, language)}</td>
      <td className="num">{duration}</td>
      <td className="num">{run.totalTokens.toLocaleString()}</td>
    </tr>
  );
}
