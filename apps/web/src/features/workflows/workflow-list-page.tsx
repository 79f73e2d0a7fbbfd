"use client";

import { useT } from "../../i18n/i18n-provider";
import { EmptyState } from "../../ui/state-views";

export function WorkflowListPage() {
  const t = useT();
  return (
    <div className="page">
      <h1>{t("workflows.list.title")}</h1>
      <EmptyState>{t("workflows.list.empty")}</EmptyState>
    </div>
  );
}
