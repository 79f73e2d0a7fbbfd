"use client";

import { useQuery } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { RunFilterWorkflowsQuery } from "../runs.operations";
import { EMPTY_FILTERS, hasFilters, RUN_STATUSES, type RunFilters, type RunStatusFilter } from "./run-filters";

export function RunFiltersBar({ filters, onChange }: { filters: RunFilters; onChange: (next: RunFilters) => void }) {
  const t = useT();
  const [{ data }] = useQuery({ query: RunFilterWorkflowsQuery });
  const workflows = data?.workflows.edges.map((edge) => edge.node) ?? [];
  return (
    <div className="filters" role="search">
      <label className="field">
        <span>{t("runs.filter.workflow")}</span>
        <select value={filters.workflowId} onChange={(e) => onChange({ ...filters, workflowId: e.target.value })}>
          <option value="">{t("runs.filter.allWorkflows")}</option>
          {workflows.map((workflow) => (
            <option key={workflow.id} value={workflow.id}>
              {workflow.name}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>{t("runs.filter.status")}</span>
        <select value={filters.status} onChange={(e) => onChange({ ...filters, status: e.target.value as RunStatusFilter | "" })}>
          <option value="">{t("runs.filter.allStatuses")}</option>
          {RUN_STATUSES.map((status) => (
            <option key={status} value={status}>
              {t(`runs.status.${status}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>{t("runs.filter.from")}</span>
        <input type="datetime-local" value={filters.from} onChange={(e) => onChange({ ...filters, from: e.target.value })} />
      </label>
      <label className="field">
        <span>{t("runs.filter.to")}</span>
        <input type="datetime-local" value={filters.to} onChange={(e) => onChange({ ...filters, to: e.target.value })} />
      </label>
      {hasFilters(filters) ? (
        <Button size="sm" variant="ghost" onClick={() => onChange(EMPTY_FILTERS)}>
          {t("runs.filter.clear")}
        </Button>
      ) : null}
    </div>
  );
}
