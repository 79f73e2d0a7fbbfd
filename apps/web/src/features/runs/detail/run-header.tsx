"use client";

import Link from "next/link";
import { useMutation } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { useToast } from "@/ui/toast";
import type { LiveRun } from "../live/use-live-run";
import type { RunStatusValue } from "../live/run-projection";
import { CancelRunMutation } from "../runs.operations";
import { StatusBadge } from "../status/status-badge";
import { LiveStreamIndicator } from "./live-stream-indicator";

/** Title, status, the live stream's state and, while the run is active, its cancel button. */
export function RunHeader({ runId, status, active, stream }: { runId: string; status: RunStatusValue; active: boolean; stream: LiveRun["stream"] }) {
  const t = useT();
  const toast = useToast();
  const [cancelState, cancel] = useMutation(CancelRunMutation);

  async function cancelRun() {
    if (!window.confirm(t("runs.detail.cancelConfirm"))) return;
    const response = await cancel({ id: runId });
    const errors = response.data?.cancelRun.errors ?? [];
    if (response.error || errors.length > 0) {
      toast.show({ tone: "error", message: response.error?.message ?? errors.map((e) => e.message).join("; ") });
    } else {
      toast.show({ tone: "info", message: t("runs.detail.cancelled") });
    }
  }

  return (
    <div className="run-header">
      <Link href="/runs">← {t("runs.detail.back")}</Link>
      <h1>{t("runs.detail.title", { id: runId.slice(0, 8) })}</h1>
      <StatusBadge status={status} />
      {active ? <LiveStreamIndicator stream={stream} /> : null}
      <span style={{ flex: 1 }} />
      {active ? (
        <Button variant="danger" busy={cancelState.fetching} onClick={() => void cancelRun()}>
          {t("runs.detail.cancel")}
        </Button>
      ) : null}
    </div>
  );
}
