"use client";

import { useQuery } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { EmptyState, LoadingState, QueryError } from "@/ui/state-views";
import { McpServersQuery } from "./settings.operations";

/**
 * The MCP servers the operator configured (WEFT_PROVIDERS_FILE's "mcp" section), read-only: where each
 * is, its tools, or why they could not be listed. Its own query, so a slow server never holds the page.
 */
export function McpServersCard() {
  const t = useT();
  const [{ data, fetching, error }, refetch] = useQuery({ query: McpServersQuery });
  const servers = data?.mcpServers ?? [];
  return (
    <section className="card" aria-label={t("settings.mcp.title")}>
      <h2>{t("settings.mcp.title")}</h2>
      {error ? (
        <QueryError error={error} onRetry={() => refetch({ requestPolicy: "network-only" })} />
      ) : fetching && !data ? (
        <LoadingState />
      ) : servers.length === 0 ? (
        <EmptyState>{t("settings.mcp.empty")}</EmptyState>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>{t("settings.mcp.name")}</th>
              <th>{t("settings.mcp.target")}</th>
              <th>{t("settings.mcp.tools")}</th>
            </tr>
          </thead>
          <tbody>
            {servers.map((server) => (
              <tr key={server.name} data-mcp-server={server.name}>
                <td>
                  <code translate="no">{server.name}</code>
                </td>
                <td>
                  <span className="badge">{server.transport === "stdio" ? t("settings.mcp.stdio") : t("settings.mcp.http")}</span> <code>{server.target}</code>
                </td>
                <td>
                  {server.error ? (
                    <span className="field__error" translate="no">
                      {server.error}
                    </span>
                  ) : (
                    <code translate="no">{server.tools.map((tool) => tool.name).join(", ") || "—"}</code>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="hint">{t("settings.mcp.help")}</p>
    </section>
  );
}
