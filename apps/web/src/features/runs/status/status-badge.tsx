"use client";

import { useT } from "@/i18n/i18n-provider";
import type { NodeStatusValue, RunStatusValue } from "../live/run-projection";

export type AnyStatus = RunStatusValue | NodeStatusValue;

/** The badge modifier for a status; shared by the list, the detail header, the graph and the timeline. */
export function statusTone(status: AnyStatus): "queued" | "running" | "waiting" | "completed" | "failed" | "cancelled" | "skipped" {
  switch (status) {
    case "QUEUED":
    case "PENDING":
      return "queued";
    case "RUNNING":
      return "running";
    case "WAITING":
      return "waiting";
    case "COMPLETED":
      return "completed";
    case "FAILED":
      return "failed";
    case "CANCELLED":
      return "cancelled";
    case "SKIPPED":
      return "skipped";
  }
}

export function StatusBadge({ status }: { status: AnyStatus }) {
  const t = useT();
  return (
    <span className={`badge badge--${statusTone(status)}`} data-status={status}>
      {status === "RUNNING" ? <span className="badge__pulse" aria-hidden="true" /> : null}
      {t(`runs.status.${status}`)}
    </span>
  );
}
