"use client";

import { Fragment, useState } from "react";
import { useMutation } from "urql";
import { useI18n } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { EmptyState } from "@/ui/state-views";
import { useToast } from "@/ui/toast";
import { formatDateTime } from "../runs/status/format-duration";
import { DocumentChunks } from "./document-chunks";
import { chunkPercent, ingestionProgress, pagePercent, withLiveStatus, type DocumentStatusValue, type LiveIngestion } from "./ingestion-progress";
import { RemoveDocumentMutation } from "./knowledge-bases.operations";

const STATUS_TONE: Record<DocumentStatusValue, string> = {
  PENDING: "queued",
  INDEXING: "running",
  READY: "completed",
  FAILED: "failed",
};

export interface DocumentRow {
  cursor: string;
  node: {
    id: string;
    title: string;
    mimeType: string;
    status: DocumentStatusValue;
    error: string | null;
    chunkCount: number;
    createdAt: string;
  };
}

interface DocumentsSectionProps {
  rows: readonly DocumentRow[];
  /** Steps from the ingestionProgress subscription, newer than the fetched rows. */
  live: LiveIngestion;
  /** Whether the live feed is connected (otherwise statuses are as last fetched). */
  connected: boolean;
  onChanged: () => void;
}

/** The documents with their live ingestion status and progress, each with its chunks and a remove button. */
export function DocumentsSection({ rows, live, connected, onChanged }: DocumentsSectionProps) {
  const { t, language } = useI18n();
  const toast = useToast();
  const [, removeDocumentCall] = useMutation(RemoveDocumentMutation);
  const [openChunks, setOpenChunks] = useState<string | null>(null);
  const documents = rows.map((row) => withLiveStatus(row.node, live));
  const progress = ingestionProgress(documents);

  async function removeDocument(documentId: string, title: string) {
    if (!window.confirm(t("knowledgeBases.docs.removeConfirm", { title }))) return;
    const response = await removeDocumentCall({ documentId });
    const errors = response.data?.removeDocument.errors ?? [];
    if (response.error || errors.length > 0) {
      toast.show({ tone: "error", message: response.error?.message ?? errors.map((e) => e.message).join("; ") });
      return;
    }
    toast.show({ tone: "success", message: t("knowledgeBases.docs.removed") });
    onChanged();
  }

  return (
    <section className="card" aria-label={t("knowledgeBases.docs.title")}>
      <h2>{t("knowledgeBases.docs.title")}</h2>
      {progress.total > 0 ? (
        <>
          <p className="hint" data-testid="ingestion-progress">
            {t("knowledgeBases.docs.progress", { ready: progress.ready, total: progress.total })} · {progress.chunks}{" "}
            {t("knowledgeBases.col.chunks").toLowerCase()}
            {progress.inFlight > 0 && !connected ? ` · ${t("knowledgeBases.docs.offline")}` : null}
          </p>
          <div className="progress" aria-hidden="true">
            <div className="progress__bar" style={{ width: `${progress.pct}%` }} />
          </div>
        </>
      ) : null}
      {rows.length === 0 ? (
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
            {documents.map((doc) => (
              <Fragment key={doc.id}>
                <tr data-document-status={doc.status}>
                  <td>
                    {doc.title} <span className="muted">· {doc.mimeType}</span>
                    {doc.error ? <div className="field__error">{doc.error}</div> : null}
                  </td>
                  <td>
                    <span className={`badge badge--${STATUS_TONE[doc.status]}`}>{t(`knowledgeBases.docStatus.${doc.status}`)}</span>
                    <ChunkProgress step={doc.status === "INDEXING" ? doc.live : null} />
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
                      <DocumentChunks documentId={doc.id} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** "32 of 100 chunks embedded" with a bar, while a document is being embedded. */
function ChunkProgress({ step }: { step: LiveIngestion[string] | null }) {
  const { t } = useI18n();
  const pages = pagePercent(step);
  const pct = pages ?? chunkPercent(step);
  if (!step || pct === null) return null;
  return (
    <div className="hint" data-testid="document-progress">
      {pages !== null
        ? t("knowledgeBases.docs.pageProgress", { done: step.pagesDone ?? 0, total: step.pagesTotal ?? 0 })
        : t("knowledgeBases.docs.chunkProgress", { done: step.chunksDone, total: step.chunksTotal })}
      <div className="progress" aria-hidden="true">
        <div className="progress__bar" style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}
