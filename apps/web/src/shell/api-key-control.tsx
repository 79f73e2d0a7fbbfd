"use client";

import { useEffect, useState } from "react";
import type { FormEvent } from "react";
import { useT } from "../i18n/i18n-provider";
import { readApiKey, subscribeApiKey, writeApiKey } from "../lib/api-key-store";
import { useApiEndpoint } from "../lib/graphql-provider";
import { Button } from "../ui/button";

/** Lets the user paste the API key this browser sends; the key never leaves localStorage otherwise. */
export function ApiKeyControl() {
  const t = useT();
  const endpoint = useApiEndpoint();
  const [open, setOpen] = useState(false);
  const [hasKey, setHasKey] = useState(false);
  const [draft, setDraft] = useState("");

  useEffect(() => {
    setHasKey(readApiKey() !== null);
    return subscribeApiKey((key) => setHasKey(key !== null));
  }, []);

  function save(event: FormEvent) {
    event.preventDefault();
    writeApiKey(draft);
    setDraft("");
    setOpen(false);
  }

  return (
    <div className="api-key-control">
      <Button size="sm" variant="ghost" aria-expanded={open} onClick={() => setOpen(!open)}>
        {t("common.apiKey.button")} · {hasKey ? t("common.apiKey.set") : t("common.apiKey.unset")}
      </Button>
      {open ? (
        <form className="popover" onSubmit={save}>
          <label className="field">
            <span>{t("common.apiKey.title")}</span>
            <input type="password" autoComplete="off" value={draft} placeholder={t("common.apiKey.placeholder")} onChange={(e) => setDraft(e.target.value)} />
          </label>
          <p className="hint">{t("common.apiKey.help", { url: endpoint.httpUrl })}</p>
          <div className="row">
            <Button type="submit" variant="primary" size="sm" disabled={!draft.trim()}>
              {t("common.apiKey.save")}
            </Button>
            {hasKey ? (
              <Button size="sm" variant="danger" onClick={() => { writeApiKey(null); setOpen(false); }}>
                {t("common.apiKey.clear")}
              </Button>
            ) : null}
            <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
              {t("common.action.close")}
            </Button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
