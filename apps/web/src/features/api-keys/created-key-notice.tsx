"use client";

import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { useClipboard } from "@/ui/use-clipboard";

/** Shows a new key once, with a copy button; closing it forgets the key. */
export function CreatedKeyNotice({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  const t = useT();
  const { copied, copy } = useClipboard();

  return (
    <section className="notice notice--success" role="alert" aria-label={t("apiKeys.created.title")}>
      <h2>
        {t("apiKeys.created.title")} · {name}
      </h2>
      <p className="hint">{t("apiKeys.created.help")}</p>
      <div className="row">
        <input type="text" readOnly className="mono secret" value={secret} aria-label={name} onFocus={(e) => e.target.select()} />
        <Button variant="primary" onClick={() => void copy(secret, "text")}>
          {copied === "text" ? t("apiKeys.created.copied") : t("apiKeys.created.copy")}
        </Button>
        <Button onClick={onDone}>{t("apiKeys.created.done")}</Button>
      </div>
      {copied === "failed" ? <p className="field__error">{t("apiKeys.created.copyFailed")}</p> : null}
    </section>
  );
}
