"use client";

import { useMutation } from "urql";
import { useI18n } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { useToast } from "@/ui/toast";
import { formatDateTime } from "../runs/status/format-duration";
import { refusalsOf, secretErrorText } from "./secret-errors";
import { DeleteSecretMutation } from "./secrets.operations";

export interface SecretRow {
  name: string;
  createdAt: string;
  updatedAt: string;
}

/** Every secret by name and dates (the API has no way to read a value back), with replace and delete. */
export function SecretsTable({ secrets, onReplace, onChanged }: { secrets: readonly SecretRow[]; onReplace: (name: string) => void; onChanged: () => void }) {
  const { t, language } = useI18n();
  const toast = useToast();
  const [, remove] = useMutation(DeleteSecretMutation);

  async function deleteSecret(name: string) {
    if (!window.confirm(t("secrets.deleteConfirm", { name }))) return;
    const response = await remove({ name });
    const refused = refusalsOf(response.error, response.data?.deleteSecret.errors);
    if (refused.length > 0) {
      toast.show({ tone: "error", message: refused.map((refusal) => secretErrorText(t, refusal)).join("; ") });
    } else {
      toast.show({ tone: "success", message: t("secrets.deleted", { name }) });
    }
    onChanged();
  }

  return (
    <table className="table">
      <thead>
        <tr>
          <th>{t("secrets.col.name")}</th>
          <th>{t("secrets.col.created")}</th>
          <th>{t("secrets.col.updated")}</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {secrets.map((secret) => (
          <tr key={secret.name} data-secret={secret.name}>
            <td>
              <code translate="no">{secret.name}</code>
            </td>
            <td>{formatDateTime(secret.createdAt, language)}</td>
            <td>{formatDateTime(secret.updatedAt, language)}</td>
            <td className="actions">
              <Button size="sm" onClick={() => onReplace(secret.name)}>
                {t("secrets.replace")}
              </Button>
              <Button size="sm" variant="danger" onClick={() => void deleteSecret(secret.name)}>
                {t("secrets.delete")}
              </Button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
