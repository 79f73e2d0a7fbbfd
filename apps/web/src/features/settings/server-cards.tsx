"use client";

import { useModelLabel } from "../node-types/model-labels";
import { useT } from "@/i18n/i18n-provider";
import { EmptyState } from "@/ui/state-views";

const kib = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString()} KiB`;

export interface ServerInfoView {
  version: string;
  authRequired: boolean;
  databaseMode: string;
  limits: { maxQueryDepth: number; maxQueryComplexity: number; maxBodyBytes: number; maxPageSize: number };
}

export function ServerCard({ info }: { info: ServerInfoView }) {
  const t = useT();
  return (
    <section className="card" aria-label={t("settings.server.title")}>
      <h2>{t("settings.server.title")}</h2>
      <dl className="dl">
        <dt>{t("settings.server.version")}</dt>
        <dd>{info.version}</dd>
        <dt>{t("settings.server.mode")}</dt>
        <dd data-mode={info.databaseMode}>
          {info.databaseMode === "server" ? t("settings.server.mode.server") : t("settings.server.mode.embedded")}
        </dd>
        <dt>{t("settings.server.auth")}</dt>
        <dd>{info.authRequired ? t("settings.server.auth.required") : t("settings.server.auth.disabled")}</dd>
        <dt>{t("settings.server.limits")}</dt>
        <dd>
          {t("settings.server.limitsValue", {
            depth: info.limits.maxQueryDepth,
            complexity: info.limits.maxQueryComplexity,
            body: kib(info.limits.maxBodyBytes),
            page: info.limits.maxPageSize,
          })}
        </dd>
      </dl>
    </section>
  );
}

export interface ProviderView {
  id: string;
  label: string;
  models: { id: string; label: string; testOnly: boolean }[];
}

/** One row per model, the provider named once beside its models; offline test models are labelled. */
export function ModelsCard({ providers }: { providers: readonly ProviderView[] }) {
  const t = useT();
  const modelLabel = useModelLabel();
  return (
    <section className="card" aria-label={t("settings.models.title")}>
      <h2>{t("settings.models.title")}</h2>
      {providers.length === 0 ? (
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
            {providers.flatMap((provider) =>
              provider.models.map((model, i) => (
                <tr key={`${provider.id}/${model.id}`}>
                  {i === 0 ? (
                    <td rowSpan={provider.models.length} style={{ verticalAlign: "top" }}>
                      {modelLabel(provider.label, provider.id)} <code className="muted">{provider.id}</code>
                    </td>
                  ) : null}
                  <td>
                    {modelLabel(model.label, provider.id, model.id)} <code className="muted">{model.id}</code>
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
  );
}
