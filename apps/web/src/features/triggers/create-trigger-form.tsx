"use client";

import { useState, type FormEvent } from "react";
import { useMutation } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { useReportOutcome } from "@/ui/user-errors";
import { InputMappingsEditor, mappingsToInputs, type InputMappings } from "./input-mappings-editor";
import { CreateScheduleTriggerMutation, CreateWebhookTriggerMutation } from "./triggers.operations";

type Kind = "WEBHOOK" | "SCHEDULE";

/** The first input node's mapping to begin with: the body's text, or the tick for schedules. */
const DEFAULT_FROM: Record<Kind, string> = { WEBHOOK: "body.text", SCHEDULE: "'Scheduled run at ' + body.tick" };

/** Creates a webhook or a schedule; a webhook's URL and secret go to `onWebhook` (shown once). */
export function CreateTriggerForm({ workflowId, inputNodeIds, onWebhook, onCreated }: {
  workflowId: string;
  inputNodeIds: string[];
  onWebhook: (created: { url: string; secret: string }) => void;
  onCreated: () => void;
}) {
  const t = useT();
  const report = useReportOutcome();
  const [kind, setKind] = useState<Kind>("WEBHOOK");
  const first = inputNodeIds[0];
  const [mappings, setMappings] = useState<InputMappings>(() => (first ? { [first]: DEFAULT_FROM.WEBHOOK } : {}));
  const [mode, setMode] = useState<"ASYNC" | "SYNC">("ASYNC");
  const [cron, setCron] = useState("0 9 * * 1-5");
  const [timezone, setTimezone] = useState(() => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC");
  const [overlap, setOverlap] = useState<"SKIP" | "ALLOW">("SKIP");
  const [catchUp, setCatchUp] = useState<"NONE" | "LAST">("NONE");
  const [webhook, createWebhook] = useMutation(CreateWebhookTriggerMutation);
  const [schedule, createSchedule] = useMutation(CreateScheduleTriggerMutation);

  const inputs = mappingsToInputs(inputNodeIds, mappings);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (kind === "WEBHOOK") {
      const result = await createWebhook({ workflowId, input: { mode, inputs } });
      const payload = result.data?.createWebhookTrigger;
      if (!report(t("triggers.create.failed"), { error: result.error, errors: payload?.errors })) return;
      if (payload?.url && payload.secret) onWebhook({ url: payload.url, secret: payload.secret });
    } else {
      const result = await createSchedule({ workflowId, input: { cron, timezone, overlap, catchUp, inputs } });
      if (!report(t("triggers.create.failed"), { error: result.error, errors: result.data?.createScheduleTrigger.errors })) return;
    }
    onCreated();
  }

  function chooseKind(next: Kind) {
    setKind(next);
    // The first node's default follows the kind unless it was edited.
    if (first && mappings[first] === DEFAULT_FROM[kind]) setMappings({ ...mappings, [first]: DEFAULT_FROM[next] });
  }

  return (
    <form className="card form-grid" onSubmit={(event) => void submit(event)} aria-label={t("triggers.create.title")}>
      <h2>{t("triggers.create.title")}</h2>
      <label className="field">
        <span>{t("triggers.field.kind")}</span>
        <select value={kind} onChange={(e) => chooseKind(e.target.value as Kind)} data-testid="trigger-kind">
          <option value="WEBHOOK">{t("triggers.kind.WEBHOOK")}</option>
          <option value="SCHEDULE">{t("triggers.kind.SCHEDULE")}</option>
        </select>
      </label>
      <InputMappingsEditor kind={kind} inputNodeIds={inputNodeIds} mappings={mappings} onChange={setMappings} />
      {kind === "WEBHOOK" ? (
        <label className="field">
          <span>{t("triggers.field.mode")}</span>
          <select value={mode} onChange={(e) => setMode(e.target.value as "ASYNC" | "SYNC")}>
            <option value="ASYNC">{t("triggers.mode.ASYNC")}</option>
            <option value="SYNC">{t("triggers.mode.SYNC")}</option>
          </select>
        </label>
      ) : (
        <>
          <label className="field">
            <span>{t("triggers.field.cron")}</span>
            <input className="mono" value={cron} onChange={(e) => setCron(e.target.value)} data-testid="trigger-cron" />
          </label>
          <label className="field">
            <span>{t("triggers.field.timezone")}</span>
            <input value={timezone} onChange={(e) => setTimezone(e.target.value)} />
          </label>
          <label className="field">
            <span>{t("triggers.field.overlap")}</span>
            <select value={overlap} onChange={(e) => setOverlap(e.target.value as "SKIP" | "ALLOW")}>
              <option value="SKIP">{t("triggers.overlap.SKIP")}</option>
              <option value="ALLOW">{t("triggers.overlap.ALLOW")}</option>
            </select>
          </label>
          <label className="field">
            <span>{t("triggers.field.catchUp")}</span>
            <select value={catchUp} onChange={(e) => setCatchUp(e.target.value as "NONE" | "LAST")}>
              <option value="NONE">{t("triggers.catchUp.NONE")}</option>
              <option value="LAST">{t("triggers.catchUp.LAST")}</option>
            </select>
          </label>
        </>
      )}
      <div className="row">
        <Button type="submit" variant="primary" busy={webhook.fetching || schedule.fetching} data-testid="create-trigger">
          {t("triggers.create.submit")}
        </Button>
      </div>
    </form>
  );
}
