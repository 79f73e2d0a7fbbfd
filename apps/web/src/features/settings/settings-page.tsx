"use client";

import { useEffect, useState } from "react";
import { useQuery } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { browserStorage, clearApiUrlOverride, readApiUrlOverride } from "@/lib/api-url-override";
import { useApiEndpoint } from "@/lib/graphql-provider";
import { Button } from "@/ui/button";
import { LoadingState, QueryError } from "@/ui/state-views";
import { McpServersCard } from "./mcp-servers-card";
import { ModelsCard, ServerCard } from "./server-cards";
import { ExecutionCard, RetrievalCard } from "./settings-cards";
import { SettingsQuery } from "./settings.operations";
import "../admin-pages.css";

export function SettingsPage() {
  const t = useT();
  const [{ data, fetching, error }, refetch] = useQuery({ query: SettingsQuery });
  return (
    <div className="page">
      <div className="page__header">
        <h1>{t("settings.title")}</h1>
      </div>
      {error ? (
        <QueryError error={error} onRetry={() => refetch({ requestPolicy: "network-only" })} />
      ) : !data ? (
        fetching ? <LoadingState /> : null
      ) : (
        <>
          <ServerCard info={data.serverInfo} />
          <RetrievalCard settings={data.serverInfo.retrieval} />
          <ExecutionCard settings={data.serverInfo.execution} />
          <ModelsCard providers={data.models} />
          <McpServersCard />
        </>
      )}
      <ConnectionCard />
    </div>
  );
}

function ConnectionCard() {
  const t = useT();
  const endpoint = useApiEndpoint();
  const [overridden, setOverridden] = useState(false);
  useEffect(() => setOverridden(readApiUrlOverride({ search: "" }, browserStorage()) !== undefined), []);
  return (
    <section className="card" aria-label={t("settings.connection.title")}>
      <h2>{t("settings.connection.title")}</h2>
      <dl className="dl">
        <dt>{t("settings.connection.endpoint")}</dt>
        <dd>
          <code>{endpoint.httpUrl}</code>
        </dd>
      </dl>
      {overridden ? (
        <div className="row">
          <p className="hint">{t("settings.connection.override")}</p>
          <Button
            size="sm"
            onClick={() => {
              clearApiUrlOverride(browserStorage());
              window.location.assign(window.location.pathname);
            }}
          >
            {t("settings.connection.reset")}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
