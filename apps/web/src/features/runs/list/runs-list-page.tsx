"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { useQuery } from "urql";
import { useI18n } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { EmptyState, LoadingState, QueryError } from "@/ui/state-views";
import { RunsQuery } from "../runs.operations";
import { useRunStatusFeed } from "./use-run-status-feed";
import { RunFiltersBar } from "./run-filters-bar";
import { RunRow } from "./run-row";
import { filtersFromSearch, filtersToSearch, hasFilters, toQueryFilters, type RunFilters } from "./run-filters";
import "../../admin-pages.css";

const PAGE_SIZE = 25;

export function RunsListPage() {
  const { t } = useI18n();
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(new URLSearchParams(search?.toString() ?? "")), [search]);
  const queryFilters = useMemo(() => toQueryFilters(filters), [filters]);
  // Pages already loaded: each entry is the cursor it was loaded after.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  useEffect(() => setCursors([null]), [queryFilters]);

  const setFilters = (next: RunFilters) => router.replace(`${pathname}${filtersToSearch(next)}`);

  return (
    <div className="page">
      <div className="page__header">
        <h1>{t("runs.list.title")}</h1>
        <RunStatusFeed filters={queryFilters} />
      </div>
      <RunFiltersBar filters={filters} onChange={setFilters} />
      <table className="table" aria-label={t("runs.list.title")}>
        <thead>
          <tr>
            <th>{t("runs.col.status")}</th>
            <th>{t("runs.col.workflow")}</th>
            <th>{t("versions.run.version")}</th>
            <th>{t("runs.col.run")}</th>
            <th>{t("runs.col.started")}</th>
            <th className="num">{t("runs.col.duration")}</th>
            <th className="num">{t("runs.col.tokens")}</th>
          </tr>
        </thead>
        {cursors.map((after, i) => (
          <RunsPage
            key={`${after ?? "first"}-${i}`}
            filters={queryFilters}
            after={after}
            index={i}
            isLast={i === cursors.length - 1}
            filtered={hasFilters(filters)}
            onMore={(cursor) => setCursors((all) => [...all, cursor])}
          />
        ))}
      </table>
    </div>
  );
}

/** One page of rows; the last page also renders the footer with "load more". */
function RunsPage({
  filters,
  after,
  index,
  isLast,
  filtered,
  onMore,
}: {
  filters: ReturnType<typeof toQueryFilters>;
  after: string | null;
  index: number;
  isLast: boolean;
  filtered: boolean;
  onMore: (cursor: string) => void;
}) {
  const { t } = useI18n();
  const [{ data, fetching, error }, refetch] = useQuery({
    query: RunsQuery,
    variables: { first: PAGE_SIZE, after, ...filters },
  });
  const span = 7;
  if (error) {
    return (
      <tbody>
        <tr>
          <td colSpan={span}>
            <QueryError error={error} onRetry={() => refetch({ requestPolicy: "network-only" })} />
          </td>
        </tr>
      </tbody>
    );
  }
  if (!data) {
    return (
      <tbody>
        <tr>
          <td colSpan={span}>{fetching ? <LoadingState /> : null}</td>
        </tr>
      </tbody>
    );
  }
  const { edges, pageInfo, totalCount } = data.runs;
  const now = Date.now();
  return (
    <tbody>
      {after === null && edges.length === 0 ? (
        <tr>
          <td colSpan={span}>
            <EmptyState>{filtered ? t("runs.list.emptyFiltered") : t("runs.list.empty")}</EmptyState>
          </td>
        </tr>
      ) : null}
      {edges.map(({ node: run }) => (
        <RunRow key={run.id} run={run} now={now} />
      ))}
      {isLast && (edges.length > 0 || after !== null) ? (
        <tr>
          <td colSpan={span}>
            <div className="list-footer">
              <span>{t("runs.list.count", { shown: Math.min(totalCount, index * PAGE_SIZE + edges.length), total: totalCount })}</span>
              {pageInfo.hasNextPage && pageInfo.endCursor ? (
                <Button size="sm" onClick={() => onMore(pageInfo.endCursor!)}>
                  {t("runs.list.loadMore")}
                </Button>
              ) : null}
            </div>
          </td>
        </tr>
      ) : null}
    </tbody>
  );
}

/** Refreshes the first page whenever a run of the listed workflow(s) changes status. */
function RunStatusFeed({ filters }: { filters: ReturnType<typeof toQueryFilters> }) {
  const { t } = useI18n();
  const [, refetchFirst] = useQuery({ query: RunsQuery, variables: { first: PAGE_SIZE, after: null, ...filters }, pause: true });
  const connected = useRunStatusFeed(filters.workflowId ?? null, () => refetchFirst({ requestPolicy: "network-only" }));
  return connected ? <span className="live-dot" data-testid="runs-live">{t("runs.list.live")}</span> : null;
}
