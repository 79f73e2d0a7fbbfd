"use client";

import { useState } from "react";
import type { FormEvent } from "react";
import { useMutation } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { refusalsOf, secretErrorText, type SecretRefusal } from "./secret-errors";
import { CreateSecretMutation } from "./secrets.operations";

/**
 * Stores a secret: a new one (name and value), or a new value for `fixedName` (createSecret replaces the
 * value of an existing name). The value field is a password field and is emptied once sent; refusals are
 * shown at their field, in the page's words for the codes it knows.
 */
export function SecretForm({ fixedName, onStored, onCancel }: { fixedName?: string; onStored: (name: string) => void; onCancel?: () => void }) {
  const t = useT();
  const [name, setName] = useState(fixedName ?? "");
  const [value, setValue] = useState("");
  const [refusals, setRefusals] = useState<SecretRefusal[]>([]);
  const [result, create] = useMutation(CreateSecretMutation);
  const at = (field: string | null) => refusals.filter((refusal) => refusal.field === field);
  const shown = (field: string | null) =>
    at(field).map((refusal) => (
      <span key={refusal.code} className="field__error" role="alert" data-code={refusal.code}>
        {secretErrorText(t, refusal)}
      </span>
    ));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setRefusals([]);
    const response = await create({ name: name.trim(), value });
    const refused = refusalsOf(response.error, response.data?.createSecret.errors);
    if (refused.length > 0) return setRefusals(refused.map((refusal) => (refusal.field === "name" || refusal.field === "value" ? refusal : { ...refusal, field: null })));
    setValue("");
    if (!fixedName) setName("");
    onStored(response.data?.createSecret.secret?.name ?? name.trim());
  }

  const title = fixedName ? t("secrets.replace.title", { name: fixedName }) : t("secrets.create.title");
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-label={title}>
      <h2>{title}</h2>
      {fixedName ? null : (
        <label className="field">
          <span>{t("secrets.create.name")}</span>
          <input type="text" required maxLength={64} autoComplete="off" spellCheck={false} value={name} placeholder="VENDOR_KEY" onChange={(e) => setName(e.target.value)} />
          <span className="hint">{t("secrets.create.nameHelp")}</span>
          {shown("name")}
        </label>
      )}
      <label className="field">
        <span>{t("secrets.create.value")}</span>
        <input type="password" required autoComplete="new-password" value={value} onChange={(e) => setValue(e.target.value)} />
        <span className="hint">{t("secrets.create.valueHelp")}</span>
        {shown("value")}
      </label>
      {shown(null)}
      <div className="row">
        <Button type="submit" variant="primary" busy={result.fetching} disabled={!name.trim() || value.length === 0}>
          {fixedName ? t("secrets.replace.submit") : t("secrets.create.submit")}
        </Button>
        {onCancel ? <Button onClick={onCancel}>{t("secrets.cancel")}</Button> : null}
      </div>
    </form>
  );
}
