"use client";

import type { ReactNode } from "react";
import type { CombinedError } from "urql";
import { useT } from "../i18n/i18n-provider";
import { useApiEndpoint } from "../lib/graphql-provider";
import { Button } from "./button";

export function LoadingState({ label }: { label?: string }) {
  const t = useT();
  return (
    <div className="state state--loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label ?? t("common.state.loading")}</span>
    </div>
  );
}

export function EmptyState({ children, action }: { children?: ReactNode; action?: ReactNode }) {
  const t = useT();
  return (
    <div className="state state--empty">
      <p>{children ?? t("common.state.empty")}</p>
      {action}
    </div>
  );
}

export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  const t = useT();
  return (
    <div className="state state--error" role="alert">
      <strong>{t("common.state.error")}</strong>
      <p>{message}</p>
      {onRetry ? <Button onClick={onRetry}>{t("common.state.retry")}</Button> : null}
    </div>
  );
}

/** Turns a urql error into a sentence: unreachable server and refused key get their own hints. */
export function useDescribeError(): (error: CombinedError) => string {
  const t = useT();
  const endpoint = useApiEndpoint();
  return (error) => {
    if (error.networkError && !error.response) return t("common.state.networkError", { url: endpoint.httpUrl });
    const unauthorized = error.graphQLErrors.find((e) => ["UNAUTHENTICATED", "FORBIDDEN"].includes(String(e.extensions?.code)));
    if (unauthorized || error.response?.status === 401) {
      return t("common.state.unauthorized", { message: unauthorized?.message ?? error.message });
    }
    return error.graphQLErrors.map((e) => e.message).join("; ") || error.message;
  };
}

export function QueryError({ error, onRetry }: { error: CombinedError; onRetry?: () => void }) {
  const describe = useDescribeError();
  return <ErrorState message={describe(error)} {...(onRetry ? { onRetry } : {})} />;
}
