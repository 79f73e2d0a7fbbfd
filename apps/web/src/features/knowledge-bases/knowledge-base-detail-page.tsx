"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMutation, useQuery } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { ErrorState, LoadingState, QueryError } from "@/ui/state-views";
import { useToast } from "@/ui/toast";
import { AddDocumentsForm } from "./add-documents-form";
import { DocumentsSection } from "./documents-section";
import { DeleteKnowledgeBaseMutation, KnowledgeBaseQuery } from "./knowledge-bases.operations";
import { SearchPanel } from "./search-panel";
import { useIngestionFeed } from "./use-ingestion-feed";
import "../admin-pages.css";

export function KnowledgeBaseDetailPage({ id }: { id: string }) {
  const t = useT();
  const router = useRouter();
  const toast = useToast();
  const [{ data, fetching, error }, refetch] = useQuery({ query: KnowledgeBaseQuery, variables: { id } });
  const [deleting, deleteKb] = useMutation(DeleteKnowledgeBaseMutation);
  const kb = data?.knowledgeBase ?? null;
  const rows = kb?.documents.edges ?? [];
  // Ingestion runs in the background on the server: follow it live, refetch when a document settles.
  const feed = useIngestionFeed(id, () => refetch({ requestPolicy: "network-only" }));

  if (error && !kb) return <QueryError error={error} onRetry={() => refetch({ requestPolicy: "network-only" })} />;
  if (!data) return fetching ? <LoadingState /> : null;
  if (!kb) return <ErrorState message={t("knowledgeBases.detail.notFound")} />;

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

  const reload = () => refetch({ requestPolicy: "network-only" });
  return (
    <div className="page">
      <Link href="/knowledge-bases">← {t("knowledgeBases.detail.back")}</Link>
      <div className="page__header" style={{ marginTop: 8 }}>
        <h1 translate="no">{kb.name}</h1>
        <Button variant="danger" busy={deleting.fetching} onClick={() => void deleteKnowledgeBase(kb.name)}>
          {t("knowledgeBases.detail.delete")}
        </Button>
      </div>
      {kb.description ? <p translate="no">{kb.description}</p> : null}
      <p className="hint">{t("knowledgeBases.detail.meta", { model: kb.embeddingModel, dimension: kb.dimension, store: kb.store })}</p>
      <div className="split">
        <div className="split__main">
          <DocumentsSection rows={rows} live={feed.live} connected={feed.connected} onChanged={reload} />
          <AddDocumentsForm knowledgeBaseId={kb.id} onAdded={reload} />
        </div>
        <aside className="split__side">
          <SearchPanel name={kb.name} />
        </aside>
      </div>
    </div>
  );
}
