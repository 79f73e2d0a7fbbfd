"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMutation } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { useToast } from "@/ui/toast";
import type { LiveRun } from "../live/use-live-run";
import type { RunStatusValue } from "../live/run-projection";
import { useReportOutcome } from "@/ui/user-errors";
import { CancelRunMutation, RerunRunMutation } from "../runs.operations";
import { StatusBadge } from "../status/status-badge";
import { LiveStreamIndicator } from "./live-stream-indicator";

interface RunHeaderProps {
  runId: string;
  status: RunStatusValue;
  active: boolean;
  /** The published version it executed; null: the draft (a re-run executes the draft as it is now). */
  version: number | null;
  stream: LiveRun["stream"];
}

/** Title, status, the live stream's state, and the run's actions: cancel while active, re-run after. */
export function RunHeader({ runId, status, active, version, stream }: RunHeaderProps) {
  const t = useT();
  const toast = useToast();
  const router = useRouter();
  const report = useReportOutcome();
  const [cancelState, cancel] = useMutation(CancelRunMutation);
  const [rerunState, rerun] = useMutation(RerunRunMutation);

  async function rerunRun() {
    const response = await rerun({ id: runId });
    const payload = response.data?.rerunRun;
    if (!report(t("versions.run.rerunRefused"), { error: response.error, errors: payload?.errors }) || !payload?.run) return;
    toast.show({ tone: "success", message: t("versions.run.rerunStarted") });
    router.push(`/runs/${payload.run.id}`);
  }

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
      ) : (
        <Button busy={rerunState.fetching} title={version === null ? t("versions.run.rerunDraftHelp") : t("versions.run.rerunHelp")} onClick={() => void rerunRun()}>
          ↻ {t("versions.run.rerun")}
        </Button>
      )}
    </div>
  );
}
