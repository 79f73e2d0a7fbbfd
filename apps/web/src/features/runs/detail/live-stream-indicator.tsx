"use client";

import { useT } from "@/i18n/i18n-provider";
import type { LiveRun } from "../live/use-live-run";

export function LiveStreamIndicator({ stream }: { stream: LiveRun["stream"] }) {
  const t = useT();
  if (stream.error) return <span className="run-error" role="alert">{stream.error}</span>;
  switch (stream.status) {
    case "live":
      return <span className="live-dot" data-stream="live">{t("runs.live.live")}</span>;
    case "reconnecting":
      return <span className="muted" role="status" data-stream="reconnecting">{t("runs.live.reconnecting", { attempt: stream.attempt })}</span>;
    case "done":
      return <span className="muted" data-stream="done">{t("runs.live.done")}</span>;
    default:
      return <span className="muted" data-stream="connecting">{t("runs.live.connecting")}</span>;
  }
}
