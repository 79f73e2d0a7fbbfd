"use client";

import { useMutation } from "urql";
import { useI18n } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { useToast } from "@/ui/toast";
import { formatDateTime } from "../runs/status/format-duration";
import { RevokeApiKeyMutation } from "./api-keys.operations";

export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** Every key by its prefix (never the key itself), with a revoke button while it is active. */
export function ApiKeysTable({ keys, onChanged }: { keys: readonly ApiKeyRow[]; onChanged: () => void }) {
  const { t, language } = useI18n();
  const toast = useToast();
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
    onChanged();
  }

  return (
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
            <td>
              <code>{key.prefix}…</code>
            </td>
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
  );
}
