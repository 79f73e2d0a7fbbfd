"use client";

import { useQuery } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { useApiEndpoint } from "@/lib/graphql-provider";
import { QueryError } from "@/ui/state-views";
import { mcpEndpointUrl } from "./mcp-client-config";
import { McpClientSnippet } from "./mcp-client-snippet";
import { McpToolForm, type McpSettings } from "./mcp-tool-form";
import { WorkflowMcpToolQuery } from "./mcp-tool.operations";

export interface McpToolCardProps {
  workflowId: string;
  settings: McpSettings;
  published: boolean;
  authRequired: boolean;
  endpointUrl: string;
  onSaved: () => void;
}

/** The card as data: whether it is offered, the form, the note while nothing is published, the client config. */
export function McpToolCard({ workflowId, settings, published, authRequired, endpointUrl, onSaved }: McpToolCardProps) {
  const t = useT();
  const offered = settings.enabled && published && Boolean(settings.toolName);
  return (
    <section className="card" aria-label={t("mcpTool.title")} data-testid="mcp-tool">
      <h2>{t("mcpTool.title")}</h2>
      <p className="hint">{t("mcpTool.help")}</p>
      <p data-testid="mcp-state">
        {offered ? t("mcpTool.state.offered", { name: settings.toolName ?? "" }) : t("mcpTool.state.off")}
      </p>
      {published ? null : (
        <p className="notice notice--warning" data-testid="mcp-unpublished">
          {t("mcpTool.unpublished")}
        </p>
      )}
      <McpToolForm key={`${settings.enabled}:${settings.toolName ?? ""}:${settings.description ?? ""}`} workflowId={workflowId} settings={settings} onSaved={onSaved} />
      <McpClientSnippet endpointUrl={endpointUrl} authRequired={authRequired} />
    </section>
  );
}

/** A workflow's "Serve as an MCP tool" settings, loaded on their own so the page around them needs no change. */
export function McpToolSection({ workflowId }: { workflowId: string }) {
  const endpoint = useApiEndpoint();
  const [{ data, error }, reload] = useQuery({ query: WorkflowMcpToolQuery, variables: { workflowId }, requestPolicy: "cache-and-network" });
  const refresh = () => reload({ requestPolicy: "network-only" });
  if (error && !data) return <QueryError error={error} onRetry={refresh} />;
  const workflow = data?.workflow;
  if (!data || !workflow) return null;
  return (
    <McpToolCard
      workflowId={workflowId}
      settings={workflow.mcp}
      published={workflow.publishedVersion !== null && workflow.publishedVersion !== undefined}
      authRequired={data.serverInfo.authRequired}
      endpointUrl={mcpEndpointUrl(endpoint.httpUrl)}
      onSaved={refresh}
    />
  );
}
