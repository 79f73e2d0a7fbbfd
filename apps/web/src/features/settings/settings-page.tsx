"use client";

import { useEffect, useState } from "react";
import { useQuery } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { browserStorage, clearApiUrlOverride, readApiUrlOverride } from "@/lib/api-url-override";
import { useApiEndpoint } from "@/lib/graphql-provider";
import { Button } from "@/ui/button";
import { EmptyState, LoadingState, QueryError } from "@/ui/state-views";
import { SettingsQuery } from "./settings.operations";
import "../admin-pages.css";

const kib = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString()} KiB`;

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
          <section className="card" aria-label={t("settings.server.title")}>
            <h2>{t("settings.server.title")}</h2>
            <dl className="dl">
              <dt>{t("settings.server.version")}</dt>
              <dd>{data.serverInfo.version}</dd>
              <dt>{t("settings.server.mode")}</dt>
              <dd data-mode={data.serverInfo.databaseMode}>
                {data.serverInfo.databaseMode === "server" ? t("settings.server.mode.server") : t("settings.server.mode.embedded")}
              </dd>
              <dt>{t("settings.server.auth")}</dt>
              <dd>{data.serverInfo.authRequired ? t("settings.server.auth.required") : t("settings.server.auth.disabled")}</dd>
              <dt>{t("settings.server.limits")}</dt>
              <dd>
                {t("settings.server.limitsValue", {
                  depth: data.serverInfo.limits.maxQueryDepth,
                  complexity: data.serverInfo.limits.maxQueryComplexity,
                  body: kib(data.serverInfo.limits.maxBodyBytes),
                  page: data.serverInfo.limits.maxPageSize,
                })}
              </dd>
            </dl>
          </section>
          <section className="card" aria-label={t("settings.models.title")}>
            <h2>{t("settings.models.title")}</h2>
            {data.models.length === 0 ? (
              <EmptyState>{t("settings.models.empty")}</EmptyState>
            ) : (
              <table className="table">
                <thead>
                  <tr>
                    <th>{t("settings.models.provider")}</th>
                    <th>{t("settings.models.model")}</th>
                    <th>{t("settings.models.kind")}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.models.flatMap((provider) =>
                    provider.models.map((model, i) => (
                      <tr key={`${provider.id}/${model.id}`}>
                        {i === 0 ? (
                          <td rowSpan={provider.models.length} style={{ verticalAlign: "top" }}>
                            {provider.label} <code className="muted">{provider.id}</code>
                          </td>
                        ) : null}
                        <td>
                          {model.label} <code className="muted">{model.id}</code>
                        </td>
                        <td>{model.testOnly ? <span className="badge badge--cancelled">{t("settings.models.offline")}</span> : null}</td>
                      </tr>
                    )),
                  )}
                </tbody>
              </table>
            )}
            <p className="hint">{t("settings.models.help")}</p>
          </section>
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
