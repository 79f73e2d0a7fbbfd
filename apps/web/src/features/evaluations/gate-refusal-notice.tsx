"use client";

import Link from "next/link";
import { useT } from "@/i18n/i18n-provider";
import type { GateRefusal } from "./gate-refusal";
import "../admin-pages.css";
import "./evaluations.css";

/**
 * What the publish gate refused, in the publish dialog: the scorers below the minimum, how many rows
 * regressed, the API's sentences (means and row positions), and links to the comparison of the draft's
 * experiment with the published version's, and to the gate's settings.
 */
export function GateRefusalNotice({ workflowId, refusal }: { workflowId: string; refusal: GateRefusal }) {
  const t = useT();
  const { candidate, baseline } = refusal;
  return (
    <div className="notice notice--error gate-refusal" role="alert" data-testid="gate-refusal">
      <h2>{t("evaluations.gateRefusal.title")}</h2>
      {refusal.scorers.length > 0 ? (
        <p data-testid="gate-refusal-scorers">
          {t("evaluations.gateRefusal.scorers")} <span translate="no">{refusal.scorers.join(", ")}</span>
        </p>
      ) : null}
      {refusal.rowIds.length > 0 ? <p data-testid="gate-refusal-rows">{t("evaluations.gateRefusal.rows", { count: refusal.rowIds.length })}</p> : null}
      <ul translate="no">
        {refusal.messages.map((message, index) => (
          <li key={index}>{message}</li>
        ))}
      </ul>
      <p className="row">
        {candidate && baseline ? <Link href={`/workflows/${workflowId}/experiments/compare?a=${baseline}&b=${candidate}`}>{t("evaluations.gateRefusal.compare")}</Link> : null}
        {candidate && !baseline ? <Link href={`/workflows/${workflowId}/experiments/${candidate}`}>{t("evaluations.gateRefusal.experiment")}</Link> : null}
        <Link href={`/workflows/${workflowId}/experiments`}>{t("evaluations.gateRefusal.settings")}</Link>
      </p>
    </div>
  );
}
