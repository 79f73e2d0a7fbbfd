"use client";

import type { ExperimentStatus } from "@/gql/graphql";
import { useT } from "@/i18n/i18n-provider";
import { formatRate } from "./experiment-format";

const BADGE: Record<ExperimentStatus, string> = { RUNNING: "badge--running", COMPLETED: "badge--completed", CANCELLED: "badge--cancelled", FAILED: "badge--failed" };

/** An experiment's status; while it runs, with the share of rows done. */
export function ExperimentStatusBadge({ status, progress }: { status: ExperimentStatus; progress: number }) {
  const t = useT();
  return (
    <span className={`badge ${BADGE[status]}`} data-testid="experiment-status" data-status={status}>
      {t(`evaluations.status.${status}`)}
      {status === "RUNNING" ? ` ${formatRate(progress)}` : ""}
    </span>
  );
}

/** What an experiment ran: "Draft" or "Version 3". */
export function useTargetName(): (experiment: { draft: boolean; version?: number | null }) => string {
  const t = useT();
  return (experiment) => (experiment.draft || experiment.version === null || experiment.version === undefined ? t("evaluations.draft") : t("evaluations.version", { number: experiment.version }));
}
