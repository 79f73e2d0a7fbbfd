"use client";

import { useState } from "react";
import type { FormEvent } from "react";
import { useMutation } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { useDescribeError } from "@/ui/state-views";
import { API_KEY_SCOPES, toggleScope, type ApiKeyScope } from "./api-key-scopes";
import { CreateApiKeyMutation } from "./api-keys.operations";

export function CreateApiKeyForm({ onCreated }: { onCreated: (created: { name: string; key: string }) => void }) {
  const t = useT();
  const describe = useDescribeError();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<ApiKeyScope[]>(["read"]);
  const [error, setError] = useState<string | null>(null);
  const [result, create] = useMutation(CreateApiKeyMutation);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const response = await create({ input: { name: name.trim(), scopes } });
    if (response.error) return setError(describe(response.error));
    const payload = response.data?.createApiKey;
    if (!payload || payload.errors.length > 0 || !payload.key) {
      return setError(payload?.errors.map((e) => e.message).join("; ") ?? "");
    }
    onCreated({ name: payload.apiKey?.name ?? name, key: payload.key });
    setName("");
  }

  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-label={t("apiKeys.create.title")}>
      <h2>{t("apiKeys.create.title")}</h2>
      <label className="field">
        <span>{t("apiKeys.create.name")}</span>
        <input type="text" required maxLength={100} value={name} placeholder={t("apiKeys.create.namePlaceholder")} onChange={(e) => setName(e.target.value)} />
      </label>
      <fieldset className="field scopes">
        <legend>{t("apiKeys.create.scopes")}</legend>
        {API_KEY_SCOPES.map((scope) => (
          <label key={scope} className="check">
            <input type="checkbox" checked={scopes.includes(scope)} onChange={() => setScopes(toggleScope(scopes, scope))} />
            <span>{t(`apiKeys.create.scopeHelp.${scope}`)}</span>
          </label>
        ))}
        {scopes.length === 0 ? <span className="field__error">{t("apiKeys.create.noScope")}</span> : null}
      </fieldset>
      {error ? <p className="field__error" role="alert">{error}</p> : null}
      <Button type="submit" variant="primary" busy={result.fetching} disabled={!name.trim() || scopes.length === 0}>
        {t("apiKeys.create.submit")}
      </Button>
    </form>
  );
}
