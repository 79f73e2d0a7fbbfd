"use client";

import Link from "next/link";
import { useEffect, useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import type { UserErrorFieldsFragment } from "@/gql/graphql";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { useToast } from "@/ui/toast";
import { useReportOutcome } from "@/ui/user-errors";
import { readGateRefusal } from "../evaluations/gate-refusal";
import { GateRefusalNotice } from "../evaluations/gate-refusal-notice";
import { usePublishDialog } from "./publish-dialog-store";
import { DraftComparisonQuery, PublishWorkflowMutation } from "./versions.operations";
import "./versions.css";

interface PublishControlProps {
  workflowId: string;
  /** The latest published version when the editor loaded; null while none is. */
  published: number | null;
  /** The graph breaks rules: the editor lists and highlights them as it does a refused run. */
  onRefused: (errors: readonly UserErrorFieldsFragment[]) => void;
  /** Before publishing: the editor clears earlier refusals and highlights. */
  onStart?: () => void;
  /** Changes whenever the editor changed the draft: whether it differs from the published version is asked again. */
  revision?: number;
}

/** The editor's link to the versions and its Publish button, with a note, in a small form under it. */
export function PublishControl({ workflowId, published: initiallyPublished, onRefused, onStart, revision = 0 }: PublishControlProps) {
  const t = useT();
  const toast = useToast();
  const report = useReportOutcome();
  const [published, setPublished] = useState(initiallyPublished);
  // The gate's refusal stays in the dialog (what failed, links to the experiments) until the next try.
  const [{ open, note, publishing, refusal }, update] = usePublishDialog(workflowId);
  const [, publish] = useMutation(PublishWorkflowMutation);
  const [comparison, compare] = useQuery({ query: DraftComparisonQuery, variables: { workflowId, from: published ?? 0 }, pause: published === null, requestPolicy: "network-only" });
  useEffect(() => {
    if (published !== null && revision > 0) compare({ requestPolicy: "network-only" });
  }, [compare, published, revision]);
  const differs = published !== null && comparison.data?.compareWorkflowVersions.identical === false;

  async function submit(event: FormEvent) {
    event.preventDefault();
    onStart?.();
    update({ publishing: true, refusal: null });
    const result = await publish({ id: workflowId, note: note.trim() });
    const payload = result.data?.publishWorkflow;
    const gateRefusal = readGateRefusal(payload?.errors);
    update({ publishing: false, refusal: gateRefusal });
    if (gateRefusal) return;
    // Rule violations name nodes and edges: the editor shows them where they are.
    if (payload && payload.errors.some((error) => error.nodeIds.length > 0 || error.edgeIds.length > 0)) {
      update({ open: false });
      onRefused(payload.errors);
      return;
    }
    if (!report(t("versions.publish.refused"), { error: result.error, errors: payload?.errors }) || !payload?.version) return;
    setPublished(payload.version.number);
    update({ open: false, note: "" });
    toast.show({ tone: "success", message: t("versions.publish.done", { number: payload.version.number }) });
  }

  return (
    <div className="publish">
      <Link href={`/workflows/${workflowId}/versions`} className="publish__versions" data-testid="published-version">
        {published === null ? t("versions.notPublished") : t("versions.published", { number: published })}
      </Link>
      <Link href={`/workflows/${workflowId}/experiments`} className="publish__versions" data-testid="experiments-link" title={t("evaluations.linkHelp")}>
        {t("evaluations.link")}
      </Link>
      {differs ? (
        <Link href={`/workflows/${workflowId}/compare?from=${published}`} className="publish__differs" data-testid="draft-differs" title={t("versions.draftDiffersHelp", { number: published })}>
          {t("versions.draftDiffers")}
        </Link>
      ) : null}
      <Button onClick={() => update({ open: !open, refusal: null })} aria-expanded={open}>
        {t("versions.publish.button")}
      </Button>
      {open ? (
        <form className="publish__form" aria-label={t("versions.publish.title")} onSubmit={(event) => void submit(event)}>
          <h2>{t("versions.publish.title")}</h2>
          <p className="hint">{t("versions.publish.help")}</p>
          <label className="field">
            <span>{t("versions.publish.note")}</span>
            <textarea name="publish-note" rows={3} maxLength={2000} value={note} placeholder={t("versions.publish.notePlaceholder")} onChange={(e) => update({ note: e.target.value })} autoFocus />
          </label>
          <div className="row">
            <Button type="submit" variant="primary" busy={publishing}>
              {t("versions.publish.submit")}
            </Button>
            <Button variant="ghost" onClick={() => update({ open: false })}>
              {t("versions.publish.cancel")}
            </Button>
          </div>
          {refusal ? <GateRefusalNotice workflowId={workflowId} refusal={refusal} /> : null}
        </form>
      ) : null}
    </div>
  );
}
