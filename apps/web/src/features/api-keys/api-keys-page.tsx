"use client";

import { useState } from "react";
import { useQuery } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { EmptyState, LoadingState, QueryError } from "@/ui/state-views";
import { ApiKeysQuery } from "./api-keys.operations";
import { ApiKeysTable } from "./api-keys-table";
import { CreateApiKeyForm } from "./create-api-key-form";
import { CreatedKeyNotice } from "./created-key-notice";
import "../admin-pages.css";

export function ApiKeysPage() {
  const t = useT();
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [{ data, fetching, error }, refetch] = useQuery({ query: ApiKeysQuery, variables: { includeRevoked: true } });
  const reload = () => refetch({ requestPolicy: "network-only" });
  const keys = data?.apiKeys ?? [];
  return (
    <div className="page">
      <div className="page__header">
        <h1>{t("apiKeys.title")}</h1>
      </div>
      <p className="hint">{t("apiKeys.intro")}</p>
      {data && !data.serverInfo.authRequired ? <p className="notice">{t("apiKeys.authDisabled")}</p> : null}
      {created ? <CreatedKeyNotice name={created.name} secret={created.key} onDone={() => setCreated(null)} /> : null}
      <div className="split">
        <div className="split__main">
          {error ? (
            <QueryError error={error} onRetry={reload} />
          ) : fetching && !data ? (
            <LoadingState />
          ) : keys.length === 0 ? (
            <EmptyState>{t("apiKeys.empty")}</EmptyState>
          ) : (
            <ApiKeysTable keys={keys} onChanged={reload} />
          )}
        </div>
        <aside className="split__side">
          <CreateApiKeyForm
            onCreated={(next) => {
              setCreated(next);
              reload();
            }}
          />
        </aside>
      </div>
    </div>
  );
}
