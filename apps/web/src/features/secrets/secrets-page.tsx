"use client";

import { useState } from "react";
import { useQuery } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { useToast } from "@/ui/toast";
import { EmptyState, LoadingState, QueryError } from "@/ui/state-views";
import { SecretForm } from "./secret-form";
import { SecretsQuery } from "./secrets.operations";
import { SecretsTable } from "./secrets-table";
import "../admin-pages.css";

/** The secrets page (admin scope): names only; create, replace a value, delete; how to name one in settings. */
export function SecretsPage() {
  const t = useT();
  const toast = useToast();
  const [replacing, setReplacing] = useState<string | null>(null);
  const [{ data, fetching, error }, refetch] = useQuery({ query: SecretsQuery });
  const reload = () => refetch({ requestPolicy: "network-only" });
  const secrets = data?.secrets ?? [];
  const [before, after] = t("secrets.usage").split("{reference}");
  return (
    <div className="page">
      <div className="page__header">
        <h1>{t("secrets.title")}</h1>
      </div>
      <p className="hint">{t("secrets.intro")}</p>
      <p className="notice" data-testid="secret-usage">
        {before}
        <code>{"{secret.NAME}"}</code>
        {after}
      </p>
      <div className="split">
        <div className="split__main">
          {error ? (
            <QueryError error={error} onRetry={reload} />
          ) : fetching && !data ? (
            <LoadingState />
          ) : secrets.length === 0 ? (
            <EmptyState>{t("secrets.empty")}</EmptyState>
          ) : (
            <SecretsTable secrets={secrets} onReplace={setReplacing} onChanged={reload} />
          )}
        </div>
        <aside className="split__side">
          {replacing ? (
            <SecretForm
              key={replacing}
              fixedName={replacing}
              onCancel={() => setReplacing(null)}
              onStored={(name) => {
                setReplacing(null);
                toast.show({ tone: "success", message: t("secrets.replaced", { name }) });
                reload();
              }}
            />
          ) : (
            <SecretForm
              onStored={(name) => {
                toast.show({ tone: "success", message: t("secrets.created", { name }) });
                reload();
              }}
            />
          )}
        </aside>
      </div>
    </div>
  );
}
