"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMutation, useQuery } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { useFormErrors } from "@/ui/user-errors";
import { Button } from "@/ui/button";
import { EmptyState, LoadingState, QueryError } from "@/ui/state-views";
import { DatasetImportForm } from "./dataset-import-form";
import { DatasetRowsQuery, DeleteDatasetMutation } from "./evaluations.operations";
import { formatExpected } from "./experiment-format";
import { UserErrorList } from "./user-error-list";
import { PageFooter, usePageCursors } from "./page-cursors";
import "../admin-pages.css";
import "./evaluations.css";

const PAGE_SIZE = 50;

/** One dataset: its rows page by page, the import of a JSONL or CSV file, and its deletion. */
export function DatasetPage({ datasetId }: { datasetId: string }) {
  const t = useT();
  const router = useRouter();
  const pages = usePageCursors();
  const [{ data, fetching, error }, refetch] = useQuery({ query: DatasetRowsQuery, variables: { id: datasetId, first: PAGE_SIZE, after: pages.after }, requestPolicy: "cache-and-network" });
  const reload = () => refetch({ requestPolicy: "network-only" });
  const [deleting, remove] = useMutation(DeleteDatasetMutation);
  const deletion = useFormErrors("evaluations.dataset.deleteFailed");

  if (error && !data) return <QueryError error={error} onRetry={reload} />;
  if (fetching && !data) return <LoadingState />;
  const dataset = data?.dataset;
  if (!dataset) return <EmptyState action={<Link href="/datasets">{t("evaluations.dataset.back")}</Link>}>{t("evaluations.dataset.notFound")}</EmptyState>;
  const rows = dataset.rows.edges.map((edge) => edge.node);

  async function deleteDataset() {
    if (!dataset || !window.confirm(t("evaluations.dataset.deleteConfirm", { name: dataset.name }))) return;
    const result = await remove({ id: dataset.id });
    if (deletion.settle(result.error, result.data?.deleteDataset.errors)) router.push("/datasets");
  }

  return (
    <div className="page">
      <div className="page__header">
        <h1 translate="no">{dataset.name}</h1>
        <Button variant="danger" busy={deleting.fetching} onClick={() => void deleteDataset()}>
          {t("evaluations.dataset.delete")}
        </Button>
      </div>
      <p className="hint">
        <Link href="/datasets">{t("evaluations.dataset.back")}</Link> · {t("evaluations.dataset.rowCount", { count: dataset.rowCount })} ·{" "}
        {t("evaluations.dataset.revision", { revision: dataset.revision })}
        {dataset.description ? (
          <>
            {" · "}
            <span translate="no">{dataset.description}</span>
          </>
        ) : null}
      </p>
      <UserErrorList errors={deletion.errors} />
      <DatasetImportForm datasetId={dataset.id} maxBodyBytes={data!.serverInfo.limits.maxBodyBytes} onImported={() => { pages.reset(); reload(); }} />
      {rows.length === 0 ? (
        <EmptyState>{t("evaluations.dataset.noRows")}</EmptyState>
      ) : (
        <table className="table eval-table" aria-label={t("evaluations.dataset.rows")}>
          <thead>
            <tr>
              <th className="num">#</th>
              <th>{t("evaluations.dataset.col.inputs")}</th>
              <th>{t("evaluations.dataset.col.expected")}</th>
              <th>{t("evaluations.dataset.col.tags")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} data-position={row.position}>
                <td className="num">{row.position}</td>
                <td translate="no">
                  {row.inputs.map((input) => (
                    <div key={input.nodeId} className="eval-cell">
                      <span className="mono">{input.nodeId}</span>: {input.content}
                    </div>
                  ))}
                </td>
                <td translate="no" className="eval-cell">
                  {formatExpected(row.expected)}
                </td>
                <td translate="no">{row.tags.join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <PageFooter pages={pages} pageSize={PAGE_SIZE} shown={rows.length} total={dataset.rows.totalCount} hasNextPage={dataset.rows.pageInfo.hasNextPage} endCursor={dataset.rows.pageInfo.endCursor} />
    </div>
  );
}
