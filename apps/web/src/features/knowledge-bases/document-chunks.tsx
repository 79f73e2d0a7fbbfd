"use client";

import { useQuery } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { LoadingState, QueryError } from "@/ui/state-views";
import { DocumentChunksQuery } from "./knowledge-bases.operations";

export function DocumentChunks({ knowledgeBaseId, documentId, after }: { knowledgeBaseId: string; documentId: string; after: string | null }) {
  const t = useT();
  const [{ data, fetching, error }, refetch] = useQuery({ query: DocumentChunksQuery, variables: { knowledgeBaseId, after }, requestPolicy: "network-only" });
  if (error) return <QueryError error={error} onRetry={() => refetch({ requestPolicy: "network-only" })} />;
  if (!data) return fetching ? <LoadingState /> : null;
  const document = data.knowledgeBase?.documents.edges.find((edge) => edge.node.id === documentId)?.node;
  const chunks = document?.chunks.edges.map((edge) => edge.node) ?? [];
  if (chunks.length === 0) return <p className="muted">{t("knowledgeBases.docs.noChunks")}</p>;
  const total = document?.chunks.totalCount ?? chunks.length;
  return (
    <div data-testid="document-chunks">
      {total > chunks.length ? <p className="hint">{t("knowledgeBases.docs.chunksShown", { shown: chunks.length, total })}</p> : null}
      {chunks.map((chunk) => (
        <div key={chunk.id} className="chunk">
          <div className="chunk__head">
            <span>#{chunk.source.chunkIndex}{chunk.source.page !== null && chunk.source.page !== undefined ? ` · p.${chunk.source.page}` : ""}</span>
            <span>{chunk.text.length} chars</span>
          </div>
          <div className="chunk__text">{chunk.text}</div>
        </div>
      ))}
    </div>
  );
}
