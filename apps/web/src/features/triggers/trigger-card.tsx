"use client";

import Link from "next/link";
import { useState } from "react";
import { useMutation } from "urql";
import type { TriggerFieldsFragment } from "@/gql/graphql";
import { useI18n, type useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { useReportOutcome } from "@/ui/user-errors";
import { formatDateTime } from "../runs/status/format-duration";
import { TriggerMappingsForm } from "./trigger-mappings-form";
import { DeleteTriggerMutation, SetTriggerEnabledMutation } from "./triggers.operations";

/** One trigger: what it is, enable/disable/delete, and its last firings with their runs. */
export function TriggerCard({ trigger, inputNodeIds, onDeleted }: { trigger: TriggerFieldsFragment; inputNodeIds: readonly string[]; onDeleted: () => void }) {
  const { t, language } = useI18n();
  const [editing, setEditing] = useState(false);
  const report = useReportOutcome();
  const [toggling, setEnabled] = useMutation(SetTriggerEnabledMutation);
  const [deleting, deleteTrigger] = useMutation(DeleteTriggerMutation);

  async function toggle() {
    const result = await setEnabled({ id: trigger.id, enabled: !trigger.enabled });
    report(t("triggers.action.failed"), { error: result.error, errors: result.data?.updateTrigger.errors });
  }

  async function remove() {
    if (!window.confirm(t("triggers.action.confirmDelete"))) return;
    const result = await deleteTrigger({ id: trigger.id });
    if (report(t("triggers.action.failed"), { error: result.error, errors: result.data?.deleteTrigger.errors })) onDeleted();
  }

  return (
    <section className="card" data-testid="trigger" data-trigger-id={trigger.id} aria-label={t(`triggers.kind.${trigger.kind}`)}>
      <div className="row">
        <span className="badge">{t(`triggers.kind.${trigger.kind}`)}</span>
        <span className={trigger.enabled ? "badge badge--success" : "badge"}>{t(trigger.enabled ? "triggers.enabled" : "triggers.disabled")}</span>
        {trigger.kind === "WEBHOOK" ? (
          <code className="mono" translate="no">{trigger.url}</code>
        ) : (
          <span className="mono" translate="no">{trigger.cron} · {trigger.timezone}</span>
        )}
      </div>
      <p className="hint">{describe(trigger, t, language)}</p>
      <div className="row">
        <Button size="sm" onClick={() => void toggle()} busy={toggling.fetching} data-testid="toggle-trigger">
          {t(trigger.enabled ? "triggers.action.disable" : "triggers.action.enable")}
        </Button>
        <Button size="sm" onClick={() => setEditing(!editing)} aria-expanded={editing} data-testid="edit-mappings">{t("triggers.mappings.edit")}</Button>
        <Link className="btn btn--sm" href={`/runs?trigger=${trigger.id}`}>{t("triggers.action.runs")}</Link>
        <Button size="sm" variant="danger" onClick={() => void remove()} busy={deleting.fetching}>{t("triggers.action.delete")}</Button>
      </div>
      {editing ? <TriggerMappingsForm trigger={trigger} inputNodeIds={inputNodeIds} onDone={() => setEditing(false)} /> : null}
      <h3>{t("triggers.firings.title")}</h3>
      {trigger.firings.length === 0 ? (
        <p className="muted">{t("triggers.firings.empty")}</p>
      ) : (
        <table className="table" aria-label={t("triggers.firings.title")}>
          <thead>
            <tr>
              <th>{t("triggers.firings.at")}</th>
              <th>{t("triggers.firings.status")}</th>
              <th>{t("triggers.firings.run")}</th>
            </tr>
          </thead>
          <tbody>
            {trigger.firings.map((firing) => (
              <tr key={firing.id} data-testid="firing" data-status={firing.status}>
                <td>{formatDateTime(firing.firedAt, language)}</td>
                <td title={typeof firing.error?.message === "string" ? firing.error.message : undefined}>
                  {t(`triggers.firing.${firing.status}`)}
                  {typeof firing.error?.code === "string" ? <span className="mono"> {firing.error.code}</span> : null}
                </td>
                <td>{firing.runId ? <Link href={`/runs/${firing.runId}`} className="mono" data-testid="firing-run">{firing.runId.slice(0, 8)}</Link> : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function describe(trigger: TriggerFieldsFragment, t: ReturnType<typeof useT>, language: string): string {
  const inputs = trigger.inputs.map((input) => `${input.nodeId} ← ${input.from}`).join("; ") || t("triggers.noInputs");
  const version = trigger.version === null ? t("triggers.latestVersion") : `v${trigger.version}`;
  if (trigger.kind === "WEBHOOK") return `${t(`triggers.mode.${trigger.mode ?? "ASYNC"}`)} · ${version} · ${inputs}`;
  const next = trigger.nextTickAt ? t("triggers.nextTick", { at: formatDateTime(trigger.nextTickAt, language) }) : t("triggers.noNextTick");
  return `${next} · ${t(`triggers.overlap.${trigger.overlap ?? "SKIP"}`)} · ${t(`triggers.catchUp.${trigger.catchUp ?? "NONE"}`)} · ${version} · ${inputs}`;
}
