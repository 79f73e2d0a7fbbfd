"use client";

import Link from "next/link";
import { useI18n } from "@/i18n/i18n-provider";
import type { RunLiveState } from "../live/run-projection";
import { elapsedMs, formatDateTime, formatDuration } from "../status/format-duration";
import { RunVersionLabel } from "../status/run-version-label";
import { formatUsd } from "@/ui/format-usd";

export interface RunSummaryData {
  workflowId: string;
  workflowName: string | null;
  /** The published version it executed; null for a run of the draft. */
  version: number | null;
  /** The run this one re-ran. */
  rerunOf: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  totalTokens: number;
  promptTokens: number;
  completionTokens: number;
  /** From the configured prices; null when no model it used has one. */
  costUsd?: number | null;
  error: { code: string; message: string } | null;
}

/** The run's facts in one strip, then its error and its warnings, if any. */
export function RunSummary({ run, warnings }: { run: RunSummaryData; warnings: RunLiveState["warnings"] }) {
  const { t, language } = useI18n();
  return (
    <>
      <div className="run-summary">
        <div>
          <span>{t("runs.detail.workflow")}</span>
          <Link href={`/workflows/${run.workflowId}`} translate="no">{run.workflowName || run.workflowId}</Link>
        </div>
        <div>
          <span>{t("versions.run.version")}</span>
          <RunVersionLabel workflowId={run.workflowId} version={run.version} />
        </div>
        {run.rerunOf ? (
          <div>
            <span>{t("versions.run.rerunOf")}</span>
            <Link href={`/runs/${run.rerunOf}`} className="mono">
              {run.rerunOf.slice(0, 8)}
            </Link>
          </div>
        ) : null}
        <div>
          <span>{t("runs.detail.started")}</span>
          <span>{formatDateTime(run.startedAt ?? run.createdAt, language)}</span>
        </div>
        <div>
          <span>{t("runs.detail.finished")}</span>
          <span>{formatDateTime(run.finishedAt, language)}</span>
        </div>
        <div>
          <span>{t("runs.detail.duration")}</span>
          <span>{formatDuration(run.durationMs ?? elapsedMs(run.startedAt, run.finishedAt, Date.now()))}</span>
        </div>
        <div>
          <span>{t("runs.detail.tokens")}</span>
          <span>{t("runs.detail.tokensSplit", { total: run.totalTokens, prompt: run.promptTokens, completion: run.completionTokens })}</span>
        </div>
        {run.costUsd !== null && run.costUsd !== undefined ? (
          <div>
            <span>{t("runs.detail.cost")}</span>
            <span data-testid="run-cost">{formatUsd(run.costUsd)}</span>
          </div>
        ) : null}
      </div>
      {run.error ? (
        <p className="notice notice--error" role="alert">
          <strong>{t("runs.detail.error")}:</strong> {run.error.code} — {run.error.message}
        </p>
      ) : null}
      {warnings.length > 0 ? (
        <div className="notice notice--warning">
          <strong>{t("runs.detail.warnings")}</strong>
          <ul>
            {warnings.map((w) => (
              <li key={w.seq}>
                {w.nodeId ? <code>{w.nodeId}</code> : null} {w.code}: {w.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}
