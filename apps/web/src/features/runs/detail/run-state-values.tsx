"use client";

import { useT } from "@/i18n/i18n-provider";

/** The state channels' final values (weft.workflow/v2), one block per channel. */
export function RunStateValues({ state }: { state: Record<string, unknown> }) {
  const t = useT();
  const channels = Object.entries(state);
  return (
    <section className="run-panel" data-testid="run-state" aria-label={t("pipeline.run.state")}>
      <h3>{t("pipeline.run.state")}</h3>
      {channels.length === 0 ? <p className="muted">{t("pipeline.run.noState")}</p> : null}
      <dl className="dl">
        {channels.map(([name, value]) => (
          <div key={name} style={{ display: "contents" }} data-channel={name}>
            <dt className="mono" translate="no">{name}</dt>
            <dd>
              <pre className="pre">{typeof value === "string" ? value : JSON.stringify(value, null, 2)}</pre>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
