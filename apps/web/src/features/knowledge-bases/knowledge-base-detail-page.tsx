"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { Fragment, useEffect, useState } from "react";
import { useMutation, useQuery } from "urql";
import { useI18n } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { EmptyState, ErrorState, LoadingState, QueryError } from "@/ui/state-views";
import { useToast } from "@/ui/toast";
import { formatDateTime } from "../runs/status/format-duration";
import { AddDocumentsForm } from "./add-documents-form";
import { DocumentChunks } from "./document-chunks";
import { ingestionProgress, pollIntervalMs, type DocumentStatusValue } from "./ingestion-progress";
import { DeleteKnowledgeBaseMutation, KnowledgeBaseQuery, RemoveDocumentMutation } from "./knowledge-bases.operations";
import { SearchPanel } from "./search-panel";
import "../admin-pages.css";

const STATUS_TONE: Record<DocumentStatusValue, string> = {
  PENDING: "queued",
  INDEXING: "running",
  READY: "completed",
  FAILED: "failed",
};

export function KnowledgeBaseDetailPage({ id }: { id: string }) {
  const { t, language } = useI18n();
  const router = useRouter();
  const toast = useToast();
  const [{ data, fetching, error }, refetch] = useQuery({ query: KnowledgeBaseQuery, variables: { id } });
  const [, removeDocumentCall] = useMutation(RemoveDocumentMutation);
  const [deleting, deleteKb] = useMutation(DeleteKnowledgeBaseMutation);
  const [openChunks, setOpenChunks] = useState<string | null>(null);
  const kb = data?.knowledgeBase ?? null;
  const edges = kb?.documents.edges ?? [];
  const documents = edges.map((edge) => edge.node);
  const progress = ingestionProgress(documents);
  const interval = pollIntervalMs(progress);

  // Ingestion runs in the background on the server; poll while any document is still in flight.
  useEffect(() => {
    if (interval === null) return;
    const timer = setInterval(() => refetch({ requestPolicy: "network-only" }), interval);
    return () => clearInterval(timer);
  }, [interval, refetch]);

  if (error && !kb) return <QueryError error={error} onRetry={() => refetch({ requestPolicy: "network-only" })} />;
  if (!data) return fetching ? <LoadingState /> : null;
  if (!kb) return <ErrorState message={t("knowledgeBases.detail.notFound")} />;

  async function removeDocument(documentId: string, title: string) {
    if (!window.confirm(t("knowledgeBases.docs.removeConfirm", { title }))) return;
    const response = await removeDocumentCall({ documentId });
    const errors = response.data?.removeDocument.errors ?? [];
    if (response.error || errors.length > 0) {
      toast.show({ tone: "error", message: response.error?.message ?? errors.map((e) => e.message).join("; ") });
      return;
    }
    toast.show({ tone: "success", message: t("knowledgeBases.docs.removed") });
    refetch({ requestPolicy: "network-only" });
  }

  async function deleteKnowledgeBase(name: string) {
    if (!window.confirm(t("knowledgeBases.detail.deleteConfirm", { name }))) return;
    const response = await deleteKb({ id });
    const errors = response.data?.deleteKnowledgeBase.errors ?? [];
    if (response.error || errors.length > 0) {
      toast.show({ tone: "error", message: response.error?.message ?? errors.map((e) => e.message).join("; ") });
      return;
    }
    toast.show({ tone: "success", message: t("knowledgeBases.detail.deleted") });
    router.push("/knowledge-bases");
  }

  return (
    <div className="page">
      <Link href="/knowledge-bases">← {t("knowledgeBases.detail.back")}</Link>
      <div className="page__header" style={{ marginTop: 8 }}>
        <h1>{kb.name}</h1>
        <Button variant="danger" busy={deleting.fetching} onClick={() => void deleteKnowledgeBase(kb.name)}>
          {t("knowledgeBases.detail.delete")}
        </Button>
      </div>
      {kb.description ? <p>{kb.description}</p> : null}
      <p className="hint">{t("knowledgeBases.detail.meta", { model: kb.embeddingModel, dimension: kb.dimension, store: kb.store })}</p>
      <div className="split">
        <div className="split__main">
          <section className="card" aria-label={t("knowledgeBases.docs.title")}>
            <h2>{t("knowledgeBases.docs.title")}</h2>
            {progress.total > 0 ? (
              <>
                <p className="hint" data-testid="ingestion-progress">
                  {t("knowledgeBases.docs.progress", { ready: progress.ready, total: progress.total })} · {progress.chunks}{" "}
                  {t("knowledgeBases.col.chunks").toLowerCase()}
                </p>
                <div className="progress" aria-hidden="true">
                  <div className="progress__bar" style={{ width: `${progress.pct}%` }} />
                </div>
              </>
            ) : null}
            {documents.length === 0 ? (
              <EmptyState>{t("knowledgeBases.docs.empty")}</EmptyState>
            ) : (
              <table className="table">
                <thead>
                  <tr>
                    <th>{t("knowledgeBases.col.title")}</th>
                    <th>{t("knowledgeBases.col.status")}</th>
                    <th className="num">{t("knowledgeBases.col.chunks")}</th>
                    <th>{t("knowledgeBases.col.added")}</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {documents.map((doc, i) => (
                    <Fragment key={doc.id}>
                      <tr data-document-status={doc.status}>
                        <td>
                          {doc.title} <span className="muted">· {doc.mimeType}</span>
                          {doc.error ? <div className="field__error">{doc.error}</div> : null}
                        </td>
                        <td>
                          <span className={`badge badge--${STATUS_TONE[doc.status]}`}>
                            {t(`knowledgeBases.docStatus.${doc.status}`)}
                          </span>
                        </td>
                        <td className="num">{doc.chunkCount}</td>
                        <td className="nowrap">{formatDateTime(doc.createdAt, language)}</td>
                        <td className="actions">
                          <Button size="sm" variant="ghost" onClick={() => setOpenChunks(openChunks === doc.id ? null : doc.id)} disabled={doc.chunkCount === 0}>
                            {openChunks === doc.id ? t("knowledgeBases.docs.hideChunks") : t("knowledgeBases.docs.chunks")}
                          </Button>
                          <Button size="sm" variant="danger" onClick={() => void removeDocument(doc.id, doc.title)}>
                            {t("knowledgeBases.docs.remove")}
                          </Button>
                        </td>
                      </tr>
                      {openChunks === doc.id ? (
                        <tr>
                          <td colSpan={5}>
                            <DocumentChunks knowledgeBaseId={kb.id} documentId={doc.id} after={i === 0 ? null : (edges[i - 1]?.cursor ?? null)} />
                          </td>
                        </tr>
                      ) : null}
                    </Fragment>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <AddDocumentsForm knowledgeBaseId={kb.id} onAdded={() => refetch({ requestPolicy: "network-only" })} />
        </div>
        <aside className="split__side">
          <SearchPanel name={kb.name} />
        </aside>
      </div>
    </div>
  );
}
