"use client";

import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { useI18n } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { EmptyState, LoadingState, QueryError } from "@/ui/state-views";
import { useToast } from "@/ui/toast";
import { formatDateTime } from "../runs/status/format-duration";
import { ApiKeysQuery, RevokeApiKeyMutation } from "./api-keys.operations";
import { CreateApiKeyForm } from "./create-api-key-form";
import { CreatedKeyNotice } from "./created-key-notice";
import "../admin-pages.css";

export function ApiKeysPage() {
  const { t, language } = useI18n();
  const toast = useToast();
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [{ data, fetching, error }, refetch] = useQuery({ query: ApiKeysQuery, variables: { includeRevoked: true } });
  const [, revoke] = useMutation(RevokeApiKeyMutation);

  async function revokeKey(id: string, name: string) {
    if (!window.confirm(t("apiKeys.revokeConfirm", { name }))) return;
    const response = await revoke({ id });
    const errors = response.data?.revokeApiKey.errors ?? [];
    if (response.error || errors.length > 0) {
      toast.show({ tone: "error", message: response.error?.message ?? errors.map((e) => e.message).join("; ") });
      return;
    }
    toast.show({ tone: "success", message: t("apiKeys.revoked.toast") });
    refetch({ requestPolicy: "network-only" });
  }

  const keys = data?.apiKeys ?? [];
  return (
    <div className="page">
      <div className="page__header">
        <h1>{t("apiKeys.title")}</h1>
      </div>
      <p className="hint">{t("apiKeys.intro")}</p>
      {data && !data.serverInfo.authRequired ? <p className="notice">{t("apiKeys.authDisabled")}</p> : null}
      {created ? <CreatedKeyNotice name={created.name} secret={created.key} onDone={() => setCreated(null)} /> : null}
      <div className="split">
        <div className="split__main">
          {error ? (
            <QueryError error={error} onRetry={() => refetch({ requestPolicy: "network-only" })} />
          ) : fetching && !data ? (
            <LoadingState />
          ) : keys.length === 0 ? (
            <EmptyState>{t("apiKeys.empty")}</EmptyState>
          ) : (
            <table className="table">
              <thead>
                <tr>
                  <th>{t("apiKeys.col.name")}</th>
                  <th>{t("apiKeys.col.prefix")}</th>
                  <th>{t("apiKeys.col.scopes")}</th>
                  <th>{t("apiKeys.col.created")}</th>
                  <th>{t("apiKeys.col.lastUsed")}</th>
                  <th>{t("apiKeys.col.status")}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {keys.map((key) => (
                  <tr key={key.id} className={key.revokedAt ? "row--muted" : undefined}>
                    <td>{key.name}</td>
                    <td><code>{key.prefix}…</code></td>
                    <td>{key.scopes.join(", ")}</td>
                    <td>{formatDateTime(key.createdAt, language)}</td>
                    <td>{key.lastUsedAt ? formatDateTime(key.lastUsedAt, language) : t("apiKeys.never")}</td>
                    <td>
                      {key.revokedAt ? (
                        <span className="badge badge--cancelled">{t("apiKeys.revoked", { date: formatDateTime(key.revokedAt, language) })}</span>
                      ) : (
                        <span className="badge badge--completed">{t("apiKeys.active")}</span>
                      )}
                    </td>
                    <td className="actions">
                      {key.revokedAt ? null : (
                        <Button size="sm" variant="danger" onClick={() => void revokeKey(key.id, key.name)}>
                          {t("apiKeys.revoke")}
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
        <aside className="split__side">
          <CreateApiKeyForm
            onCreated={(next) => {
              setCreated(next);
              refetch({ requestPolicy: "network-only" });
            }}
          />
        </aside>
      </div>
    </div>
  );
}
