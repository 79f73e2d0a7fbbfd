"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { useI18n, useT } from "@/i18n/i18n-provider";
import { useFormErrors } from "@/ui/user-errors";
import { Button } from "@/ui/button";
import { EmptyState, LoadingState, QueryError } from "@/ui/state-views";
import { formatDateTime } from "../runs/status/format-duration";
import { CreateDatasetMutation, DatasetsQuery } from "./evaluations.operations";
import { LIST_PAGE_SIZE, PageFooter, usePageCursors } from "./page-cursors";
import { UserErrorList } from "./user-error-list";
import "../admin-pages.css";
import "./evaluations.css";

/** The datasets experiments and publish gates run on, newest first, and the form that creates one. */
export function DatasetsPage() {
  const { t, language } = useI18n();
  const pages = usePageCursors();
  const [{ data, fetching, error }, refetch] = useQuery({ query: DatasetsQuery, variables: { after: pages.after }, requestPolicy: "cache-and-network" });
  const datasets = data?.datasets.edges.map((edge) => edge.node) ?? [];
  return (
    <div className="page">
      <div className="page__header">
        <h1>{t("evaluations.datasets.title")}</h1>
      </div>
      <p className="hint">{t("evaluations.datasets.intro")}</p>
      <CreateDatasetForm />
      {error ? (
        <QueryError error={error} onRetry={() => refetch({ requestPolicy: "network-only" })} />
      ) : fetching && !data ? (
        <LoadingState />
      ) : datasets.length === 0 ? (
        <EmptyState>{t("evaluations.datasets.empty")}</EmptyState>
      ) : (
        <table className="table" aria-label={t("evaluations.datasets.title")}>
          <thead>
            <tr>
              <th>{t("evaluations.datasets.col.name")}</th>
              <th>{t("evaluations.datasets.col.description")}</th>
              <th className="num">{t("evaluations.datasets.col.rows")}</th>
              <th>{t("evaluations.datasets.col.updated")}</th>
            </tr>
          </thead>
          <tbody>
            {datasets.map((dataset) => (
              <tr key={dataset.id}>
                <td translate="no">
                  <Link href={`/datasets/${dataset.id}`}>{dataset.name}</Link>
                </td>
                <td translate="no">{dataset.description}</td>
                <td className="num">{dataset.rowCount}</td>
                <td>{formatDateTime(dataset.updatedAt, language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data && datasets.length > 0 ? (
        <PageFooter pages={pages} pageSize={LIST_PAGE_SIZE} shown={datasets.length} total={data.datasets.totalCount} hasNextPage={data.datasets.pageInfo.hasNextPage} endCursor={data.datasets.pageInfo.endCursor} />
      ) : null}
    </div>
  );
}

/** Name and description; the new dataset opens at once, to import its rows. */
function CreateDatasetForm() {
  const t = useT();
  const router = useRouter();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const { errors, settle } = useFormErrors("evaluations.datasets.createFailed");
  const [state, create] = useMutation(CreateDatasetMutation);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const result = await create({ input: { name, description: description.trim() === "" ? null : description } });
    const payload = result.data?.createDataset;
    if (settle(result.error, payload?.errors) && payload?.dataset) router.push(`/datasets/${payload.dataset.id}`);
  }

  return (
    <form className="card eval-form" aria-label={t("evaluations.datasets.create")} onSubmit={(event) => void submit(event)}>
      <h2>{t("evaluations.datasets.create")}</h2>
      <div className="row">
        <label className="field">
          <span>{t("evaluations.datasets.name")}</span>
          <input value={name} maxLength={200} required onChange={(event) => setName(event.target.value)} />
        </label>
        <label className="field eval-form__grow">
          <span>{t("evaluations.datasets.description")}</span>
          <input value={description} maxLength={2000} onChange={(event) => setDescription(event.target.value)} />
        </label>
        <Button type="submit" variant="primary" busy={state.fetching}>
          {t("evaluations.datasets.createButton")}
        </Button>
      </div>
      <UserErrorList errors={errors} />
    </form>
  );
}
