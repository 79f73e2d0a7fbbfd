"use client";

import { useModelLabel } from "../node-types/model-labels";
import { useT } from "@/i18n/i18n-provider";
import { EmptyState } from "@/ui/state-views";
import { formatUsd } from "@/ui/format-usd";

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
  models: { id: string; label: string; testOnly: boolean; inputUsdPerMTok?: number | null; outputUsdPerMTok?: number | null }[];
}

/** A model's price per million tokens, prompt and completion, or null when neither is configured (its cost is then unknown). */
export function priceText(model: ProviderView["models"][number], unknown: string): string | null {
  const input = model.inputUsdPerMTok ?? null;
  const output = model.outputUsdPerMTok ?? null;
  if (input === null && output === null) return null;
  return `${input === null ? unknown : formatUsd(input)} / ${output === null ? unknown : formatUsd(output)}`;
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
              <th>{t("settings.models.price")}</th>
              <th>{t("settings.models.kind")}</th>
            </tr>
          </thead>
          <tbody>
            {providers.flatMap((provider) =>
              provider.models.map((model, i) => (
                <tr key={`${provider.id}/${model.id}`}>
                  {i === 0 ? (
                    <td rowSpan={provider.models.length} style={{ verticalAlign: "top" }}>
                      <span translate={provider.id === "offline" ? undefined : "no"}>{modelLabel(provider.label, provider.id)}</span> <code className="muted">{provider.id}</code>
                    </td>
                  ) : null}
                  <td>
                    <span translate={provider.id === "offline" ? undefined : "no"}>{modelLabel(model.label, provider.id, model.id)}</span> <code className="muted">{model.id}</code>
                  </td>
                  <td className="num" data-price={`${provider.id}/${model.id}`}>
                    {model.testOnly ? null : (priceText(model, "?") ?? <span className="muted">{t("settings.models.noPrice")}</span>)}
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
