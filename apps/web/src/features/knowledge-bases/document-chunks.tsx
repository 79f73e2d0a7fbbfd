"use client";

import { useQuery } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { LoadingState, QueryError } from "@/ui/state-views";
import { DocumentChunksQuery } from "./knowledge-bases.operations";

export function DocumentChunks({ knowledgeBaseId, documentId }: { knowledgeBaseId: string; documentId: string }) {
  const t = useT();
  const [{ data, fetching, error }, refetch] = useQuery({ query: DocumentChunksQuery, variables: { knowledgeBaseId }, requestPolicy: "network-only" });
  if (error) return <QueryError error={error} onRetry={() => refetch({ requestPolicy: "network-only" })} />;
  if (!data) return fetching ? <LoadingState /> : null;
  const document = data.knowledgeBase?.documents.edges.find((edge) => edge.node.id === documentId)?.node;
  const chunks = document?.chunks.edges.map((edge) => edge.node) ?? [];
  if (chunks.length === 0) return <p className="muted">{t("knowledgeBases.docs.noChunks")}</p>;
  return (
    <div data-testid="document-chunks">
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
