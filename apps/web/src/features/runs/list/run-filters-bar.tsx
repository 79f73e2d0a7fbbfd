"use client";

import { useQuery } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { VersionOptions } from "../../versions/compare-chooser";
import { WorkflowVersionsQuery } from "../../versions/versions.operations";
import { RunFilterWorkflowsQuery } from "../runs.operations";
import { EMPTY_FILTERS, hasFilters, RUN_STATUSES, type RunFilters, type RunStatusFilter, type RunVersionFilter } from "./run-filters";

export function RunFiltersBar({ filters, onChange }: { filters: RunFilters; onChange: (next: RunFilters) => void }) {
  const t = useT();
  const [{ data }] = useQuery({ query: RunFilterWorkflowsQuery });
  const workflows = data?.workflows.edges.map((edge) => edge.node) ?? [];
  // Two workflows of the same name are told apart by the start of their ids.
  const sameName = new Set(workflows.filter((workflow, index) => workflows.findIndex((other) => other.name === workflow.name) !== index).map((workflow) => workflow.name));
  // One workflow's versions, to filter by one of them.
  const [versionsResult] = useQuery({ query: WorkflowVersionsQuery, variables: { id: filters.workflowId, first: 100 }, pause: !filters.workflowId });
  const numbers = filters.workflowId ? (versionsResult.data?.workflow?.versions.edges.map((edge) => edge.node.number) ?? []) : [];
  const chooseWorkflow = (workflowId: string) => {
    const keepVersion = filters.version === "draft" || filters.version === "published";
    onChange({ ...filters, workflowId, version: keepVersion ? filters.version : "" });
  };
  return (
    <div className="filters" role="search">
      <label className="field">
        <span>{t("runs.filter.workflow")}</span>
        <select value={filters.workflowId} onChange={(e) => chooseWorkflow(e.target.value)}>
          <option value="">{t("runs.filter.allWorkflows")}</option>
          {workflows.map((workflow) => (
            <option key={workflow.id} value={workflow.id}>
              {sameName.has(workflow.name) ? `${workflow.name} · ${workflow.id.slice(0, 8)}` : workflow.name}
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
        <span>{t("versions.filter.version")}</span>
        <select name="run-version" value={filters.version} onChange={(e) => onChange({ ...filters, version: e.target.value as RunVersionFilter })}>
          <option value="">{t("versions.filter.anyVersion")}</option>
          <option value="draft">{t("versions.filter.draftOnly")}</option>
          <option value="published">{t("versions.filter.publishedOnly")}</option>
          <VersionOptions numbers={numbers} />
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
