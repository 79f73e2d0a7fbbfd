"use client";

import "./workflows.css";

import { useRouter } from "next/navigation";
import { useCallback, useState } from "react";
import { useQuery } from "urql";
import { useT } from "../../i18n/i18n-provider";
import { Button } from "../../ui/button";
import { EmptyState, LoadingState, QueryError } from "../../ui/state-views";
import { CreateWorkflowForm } from "./create-workflow-form";
import { ImportWorkflowButton } from "./import-workflow-button";
import { TemplatePicker } from "./template-picker";
import { WorkflowRow } from "./workflow-row";
import { WorkflowListQuery } from "./workflows.operations";

const PAGE_SIZE = 50;

export function WorkflowListPage() {
  const t = useT();
  const router = useRouter();
  const [search, setSearch] = useState("");
  // Each loaded page is its own query; a change reloads from the first page.
  const [pages, setPages] = useState<(string | null)[]>([null]);
  const [generation, setGeneration] = useState(0);
  const [picking, setPicking] = useState(false);
  const refresh = useCallback(() => {
    setPages([null]);
    setGeneration((value) => value + 1);
  }, []);

  return (
    <div className="page">
      <div className="page__header">
        <h1>{t("workflows.list.title")}</h1>
        <input type="search" className="search" aria-label={t("workflows.list.search")} placeholder={t("workflows.list.search")} value={search} onChange={(e) => { setSearch(e.target.value); setPages([null]); }} />
        <Button onClick={() => setPicking((open) => !open)} aria-expanded={picking}>
          {t("workflows.templates.button")}
        </Button>
        <ImportWorkflowButton onImported={(id) => router.push(`/workflows/${id}`)} />
      </div>
      {picking ? <TemplatePicker onCreated={(id) => router.push(`/workflows/${id}`)} onClose={() => setPicking(false)} /> : null}
      <CreateWorkflowForm onCreated={(id) => router.push(`/workflows/${id}`)} />
      <table className="table" data-testid="workflow-table">
        <thead>
          <tr>
            <th>{t("workflows.column.name")}</th>
            <th>{t("workflows.column.nodes")}</th>
            <th>{t("workflows.column.updated")}</th>
            <th className="actions">{t("workflows.column.actions")}</th>
          </tr>
        </thead>
        {pages.map((after, index) => (
          <WorkflowPage
            key={`${generation}-${search}-${after ?? "first"}`}
            after={after}
            search={search.trim()}
            first={index === 0}
            last={index === pages.length - 1}
            onChanged={refresh}
            onMore={(cursor) => setPages((all) => [...all, cursor])}
          />
        ))}
      </table>
    </div>
  );
}

interface WorkflowPageProps {
  after: string | null;
  search: string;
  first: boolean;
  last: boolean;
  onChanged: () => void;
  onMore: (cursor: string) => void;
}

function WorkflowPage({ after, search, first, last, onChanged, onMore }: WorkflowPageProps) {
  const t = useT();
  const [{ data, fetching, error }, reexecute] = useQuery({
    query: WorkflowListQuery,
    variables: { first: PAGE_SIZE, after, search: search || null },
    requestPolicy: "network-only",
  });
  const connection = data?.workflows;
  return (
    <tbody>
      {error ? (
        <tr>
          <td colSpan={4}>
            <QueryError error={error} onRetry={() => reexecute({ requestPolicy: "network-only" })} />
          </td>
        </tr>
      ) : null}
      {!connection && fetching ? (
        <tr>
          <td colSpan={4}>
            <LoadingState />
          </td>
        </tr>
      ) : null}
      {first && connection && connection.edges.length === 0 ? (
        <tr>
          <td colSpan={4}>
            <EmptyState>{search ? t("workflows.list.noMatch", { search }) : t("workflows.list.empty")}</EmptyState>
          </td>
        </tr>
      ) : null}
      {connection?.edges.map(({ node }) => (
        <WorkflowRow
          key={node.id}
          onChanged={onChanged}
          workflow={{
            id: node.id,
            name: node.name,
            description: node.description,
            updatedAt: String(node.updatedAt),
            activeRunId: node.activeRunId ?? null,
            nodeCount: node.nodes.length,
            publishedVersion: node.publishedVersion?.number ?? null,
            mcpToolName: node.mcp.enabled ? node.mcp.toolName : null,
          }}
        />
      ))}
      {last && connection?.pageInfo.hasNextPage && connection.pageInfo.endCursor ? (
        <tr>
          <td colSpan={4} className="table__more">
            <Button onClick={() => onMore(connection.pageInfo.endCursor as string)}>{t("workflows.list.loadMore")}</Button>
            <span className="hint">{t("workflows.list.count", { count: connection.totalCount })}</span>
          </td>
        </tr>
      ) : null}
    </tbody>
  );
}
