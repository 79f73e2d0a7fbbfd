"use client";

import Link from "next/link";
import { useEffect, useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import type { UserErrorFieldsFragment } from "@/gql/graphql";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { useToast } from "@/ui/toast";
import { useReportOutcome } from "@/ui/user-errors";
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
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState("");
  const [state, publish] = useMutation(PublishWorkflowMutation);
  const [comparison, compare] = useQuery({ query: DraftComparisonQuery, variables: { workflowId, from: published ?? 0 }, pause: published === null, requestPolicy: "network-only" });
  useEffect(() => {
    if (published !== null && revision > 0) compare({ requestPolicy: "network-only" });
  }, [compare, published, revision]);
  const differs = published !== null && comparison.data?.compareWorkflowVersions.identical === false;

  async function submit(event: FormEvent) {
    event.preventDefault();
    onStart?.();
    const result = await publish({ id: workflowId, note: note.trim() });
    const payload = result.data?.publishWorkflow;
    // Rule violations name nodes and edges: the editor shows them where they are.
    if (payload && payload.errors.some((error) => error.nodeIds.length > 0 || error.edgeIds.length > 0)) {
      setOpen(false);
      onRefused(payload.errors);
      return;
    }
    if (!report(t("versions.publish.refused"), { error: result.error, errors: payload?.errors }) || !payload?.version) return;
    setPublished(payload.version.number);
    setOpen(false);
    setNote("");
    toast.show({ tone: "success", message: t("versions.publish.done", { number: payload.version.number }) });
  }

  return (
    <div className="publish">
      <Link href={`/workflows/${workflowId}/versions`} className="publish__versions" data-testid="published-version">
        {published === null ? t("versions.notPublished") : t("versions.published", { number: published })}
      </Link>
      {differs ? (
        <Link href={`/workflows/${workflowId}/compare?from=${published}`} className="publish__differs" data-testid="draft-differs" title={t("versions.draftDiffersHelp", { number: published })}>
          {t("versions.draftDiffers")}
        </Link>
      ) : null}
      <Button onClick={() => setOpen((value) => !value)} aria-expanded={open}>
        {t("versions.publish.button")}
      </Button>
      {open ? (
        <form className="publish__form" aria-label={t("versions.publish.title")} onSubmit={(event) => void submit(event)}>
          <h2>{t("versions.publish.title")}</h2>
          <p className="hint">{t("versions.publish.help")}</p>
          <label className="field">
            <span>{t("versions.publish.note")}</span>
            <textarea name="publish-note" rows={3} maxLength={2000} value={note} placeholder={t("versions.publish.notePlaceholder")} onChange={(e) => setNote(e.target.value)} autoFocus />
          </label>
          <div className="row">
            <Button type="submit" variant="primary" busy={state.fetching}>
              {t("versions.publish.submit")}
            </Button>
            <Button variant="ghost" onClick={() => setOpen(false)}>
              {t("versions.publish.cancel")}
            </Button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
