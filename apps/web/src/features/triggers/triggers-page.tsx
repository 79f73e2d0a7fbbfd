"use client";

import Link from "next/link";
import { useState } from "react";
import { useQuery } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { ErrorState, LoadingState, QueryError } from "@/ui/state-views";
import { McpToolSection } from "../mcp-tool/mcp-tool-section";
import { CreateTriggerForm } from "./create-trigger-form";
import { CreatedWebhookNotice } from "./created-webhook-notice";
import { TriggerCard } from "./trigger-card";
import { WorkflowTriggersQuery } from "./triggers.operations";
import "../admin-pages.css";

/** A workflow's webhooks and schedules: create them, see a new webhook's URL and secret once, enable or disable them, follow their firings. */
export function TriggersPage({ workflowId }: { workflowId: string }) {
  const t = useT();
  const [{ data, fetching, error }, reload] = useQuery({ query: WorkflowTriggersQuery, variables: { workflowId }, requestPolicy: "cache-and-network" });
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const refresh = () => reload({ requestPolicy: "network-only" });

  if (error && !data) return <QueryError error={error} onRetry={refresh} />;
  if (!data && fetching) return <LoadingState />;
  if (!data?.workflow) return <ErrorState message={t("triggers.notFound")} />;

  const inputNodeIds = data.workflow.nodes.filter((node) => node.type === "input").map((node) => node.id);
  return (
    <div className="page">
      <div className="page__header">
        <h1>{t("triggers.title", { name: data.workflow.name })}</h1>
        <Link href={`/workflows/${workflowId}`}>← {t("triggers.back")}</Link>
        <button type="button" className="btn btn--sm" onClick={refresh} data-testid="refresh-triggers">{t("triggers.refresh")}</button>
      </div>
      <p className="hint">{t("triggers.help")}</p>
      {created ? <CreatedWebhookNotice url={created.url} secret={created.secret} onDone={() => setCreated(null)} /> : null}
      <CreateTriggerForm workflowId={workflowId} inputNodeIds={inputNodeIds} onWebhook={setCreated} onCreated={refresh} />
      {data.triggers.length === 0 ? <p className="muted">{t("triggers.empty")}</p> : null}
      {data.triggers.map((trigger) => (
        <TriggerCard key={trigger.id} trigger={trigger} inputNodeIds={inputNodeIds} onDeleted={refresh} />
      ))}
      <McpToolSection workflowId={workflowId} />
    </div>
  );
}
