"use client";

import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { useClipboard } from "@/ui/use-clipboard";

/** A new webhook's URL and signing secret: the secret is shown this once, with copy buttons. */
export function CreatedWebhookNotice({ url, secret, onDone }: { url: string; secret: string; onDone: () => void }) {
  const t = useT();
  const { copied, copy } = useClipboard<"url" | "secret">();

  return (
    <section className="notice notice--success" role="alert" aria-label={t("triggers.created.title")} data-testid="created-webhook">
      <h2>{t("triggers.created.title")}</h2>
      <p className="hint">{t("triggers.created.help")}</p>
      <div className="row">
        <input type="text" readOnly className="mono secret" value={url} aria-label={t("triggers.created.url")} data-testid="webhook-url" onFocus={(e) => e.target.select()} />
        <Button onClick={() => void copy(url, "url")}>{copied === "url" ? t("triggers.created.copied") : t("triggers.created.copyUrl")}</Button>
      </div>
      <div className="row">
        <input type="text" readOnly className="mono secret" value={secret} aria-label={t("triggers.created.secret")} data-testid="webhook-secret" onFocus={(e) => e.target.select()} />
        <Button variant="primary" onClick={() => void copy(secret, "secret")}>
          {copied === "secret" ? t("triggers.created.copied") : t("triggers.created.copySecret")}
        </Button>
        <Button onClick={onDone}>{t("triggers.created.done")}</Button>
      </div>
      {copied === "failed" ? <p className="field__error">{t("triggers.created.copyFailed")}</p> : null}
    </section>
  );
}
