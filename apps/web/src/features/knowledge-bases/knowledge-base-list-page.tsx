"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { useI18n } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { EmptyState, LoadingState, QueryError, useDescribeError } from "@/ui/state-views";
import { useToast } from "@/ui/toast";
import { formatDateTime } from "../runs/status/format-duration";
import { CreateKnowledgeBaseMutation, KnowledgeBasesQuery } from "./knowledge-bases.operations";
import "../admin-pages.css";

export function KnowledgeBaseListPage() {
  const { t, language } = useI18n();
  const [{ data, fetching, error }, refetch] = useQuery({ query: KnowledgeBasesQuery, variables: { first: 100 } });
  const bases = data?.knowledgeBases.edges.map((edge) => edge.node) ?? [];
  return (
    <div className="page">
      <div className="page__header">
        <h1>{t("knowledgeBases.list.title")}</h1>
      </div>
      <div className="split">
        <div className="split__main">
          {error ? (
            <QueryError error={error} onRetry={() => refetch({ requestPolicy: "network-only" })} />
          ) : !data ? (
            fetching ? <LoadingState /> : null
          ) : bases.length === 0 ? (
            <EmptyState>{t("knowledgeBases.list.empty")}</EmptyState>
          ) : (
            <table className="table">
              <thead>
                <tr>
                  <th>{t("knowledgeBases.col.name")}</th>
                  <th className="num">{t("knowledgeBases.col.documents")}</th>
                  <th className="num">{t("knowledgeBases.col.chunks")}</th>
                  <th>{t("knowledgeBases.col.embedding")}</th>
                  <th>{t("knowledgeBases.col.store")}</th>
                  <th>{t("knowledgeBases.col.created")}</th>
                </tr>
              </thead>
              <tbody>
                {bases.map((kb) => {
                  return (
                    <tr key={kb.id}>
                      <td>
                        <Link href={`/knowledge-bases/${kb.id}`} translate="no">{kb.name}</Link>
                        {kb.description ? <div className="muted" translate="no">{kb.description}</div> : null}
                      </td>
                      <td className="num">{kb.documentCount}</td>
                      <td className="num">{kb.chunkCount}</td>
                      <td>
                        <code>{kb.embeddingModel}</code> <span className="muted">({kb.dimension})</span>
                      </td>
                      <td>{kb.store}</td>
                      <td className="nowrap">{formatDateTime(kb.createdAt, language)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </div>
        <aside className="split__side">
          <CreateKnowledgeBaseForm />
        </aside>
      </div>
    </div>
  );
}

function CreateKnowledgeBaseForm() {
  const { t } = useI18n();
  const router = useRouter();
  const toast = useToast();
  const describe = useDescribeError();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [state, create] = useMutation(CreateKnowledgeBaseMutation);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const response = await create({ input: { name: name.trim(), description: description.trim() || null } });
    if (response.error) return setError(describe(response.error));
    const payload = response.data?.createKnowledgeBase;
    if (!payload?.knowledgeBase || payload.errors.length > 0) {
      return setError(payload?.errors.map((e) => e.message).join("; ") ?? "");
    }
    toast.show({ tone: "success", message: t("knowledgeBases.create.created", { name: payload.knowledgeBase.name }) });
    router.push(`/knowledge-bases/${payload.knowledgeBase.id}`);
  }

  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-label={t("knowledgeBases.create.title")}>
      <h2>{t("knowledgeBases.create.title")}</h2>
      <label className={error ? "field field--invalid" : "field"}>
        <span>{t("knowledgeBases.create.name")}</span>
        <input type="text" required maxLength={64} value={name} placeholder={t("knowledgeBases.create.namePlaceholder")} onChange={(e) => setName(e.target.value)} />
      </label>
      <p className="hint">{t("knowledgeBases.create.nameHelp")}</p>
      <label className="field">
        <span>{t("knowledgeBases.create.description")}</span>
        <input type="text" value={description} onChange={(e) => setDescription(e.target.value)} />
      </label>
      {error ? <p className="field__error" role="alert">{error}</p> : null}
      <Button type="submit" variant="primary" busy={state.fetching} disabled={!name.trim()}>
        {t("knowledgeBases.create.submit")}
      </Button>
    </form>
  );
}

