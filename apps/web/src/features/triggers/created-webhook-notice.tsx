"use client";

import { useState } from "react";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";

/** A new webhook's URL and signing secret: the secret is shown this once, with copy buttons. */
export function CreatedWebhookNotice({ url, secret, onDone }: { url: string; secret: string; onDone: () => void }) {
  const t = useT();
  const [copied, setCopied] = useState<"" | "url" | "secret" | "failed">("");

  async function copy(what: "url" | "secret") {
    try {
      await navigator.clipboard.writeText(what === "url" ? url : secret);
      setCopied(what);
    } catch {
      setCopied("failed");
    }
  }

  return (
    <section className="notice notice--success" role="alert" aria-label={t("triggers.created.title")} data-testid="created-webhook">
      <h2>{t("triggers.created.title")}</h2>
      <p className="hint">{t("triggers.created.help")}</p>
      <div className="row">
        <input type="text" readOnly className="mono secret" value={url} aria-label={t("triggers.created.url")} data-testid="webhook-url" onFocus={(e) => e.target.select()} />
        <Button onClick={() => void copy("url")}>{copied === "url" ? t("triggers.created.copied") : t("triggers.created.copyUrl")}</Button>
      </div>
      <div className="row">
        <input type="text" readOnly className="mono secret" value={secret} aria-label={t("triggers.created.secret")} data-testid="webhook-secret" onFocus={(e) => e.target.select()} />
        <Button variant="primary" onClick={() => void copy("secret")}>
          {copied === "secret" ? t("triggers.created.copied") : t("triggers.created.copySecret")}
        </Button>
        <Button onClick={onDone}>{t("triggers.created.done")}</Button>
      </div>
      {copied === "failed" ? <p className="field__error">{t("triggers.created.copyFailed")}</p> : null}
    </section>
  );
}
