"use client";

import { useState } from "react";
import { useQuery } from "urql";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { LoadingState, QueryError } from "@/ui/state-views";
import { DocumentChunksQuery } from "./knowledge-bases.operations";

export const CHUNK_PAGE_SIZE = 50;

/** A document's chunks by its id, a page at a time; "show more" loads the next page below. */
export function DocumentChunks({ documentId }: { documentId: string }) {
  // Pages already loaded: each entry is the cursor it was loaded after.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  return (
    <div data-testid="document-chunks">
      {cursors.map((after, index) => (
        <ChunkPage
          key={after ?? "first"}
          documentId={documentId}
          after={after}
          index={index}
          isLast={index === cursors.length - 1}
          onMore={(cursor) => setCursors((all) => [...all, cursor])}
        />
      ))}
    </div>
  );
}

function ChunkPage({
  documentId,
  after,
  index,
  isLast,
  onMore,
}: {
  documentId: string;
  after: string | null;
  index: number;
  isLast: boolean;
  onMore: (cursor: string) => void;
}) {
  const t = useT();
  const [{ data, fetching, error }, refetch] = useQuery({
    query: DocumentChunksQuery,
    variables: { documentId, first: CHUNK_PAGE_SIZE, after },
    requestPolicy: "network-only",
  });
  if (error) return <QueryError error={error} onRetry={() => refetch({ requestPolicy: "network-only" })} />;
  if (!data) return fetching ? <LoadingState /> : null;
  const page = data.documentChunks;
  const chunks = page?.edges.map((edge) => edge.node) ?? [];
  if (index === 0 && chunks.length === 0) return <p className="muted">{t("knowledgeBases.docs.noChunks")}</p>;
  const shown = index * CHUNK_PAGE_SIZE + chunks.length;
  const total = page?.totalCount ?? shown;
  return (
    <>
      {chunks.map((chunk) => (
        <div key={chunk.id} className="chunk">
          <div className="chunk__head">
            <span>#{chunk.source.chunkIndex}{chunk.source.page !== null && chunk.source.page !== undefined ? ` · p.${chunk.source.page}` : ""}</span>
            <span>{chunk.text.length} chars</span>
          </div>
          <div className="chunk__text">{chunk.text}</div>
        </div>
      ))}
      {isLast && total > shown ? (
        <div className="row">
          <p className="hint">{t("knowledgeBases.docs.chunksShown", { shown, total })}</p>
          {page?.pageInfo.hasNextPage && page.pageInfo.endCursor ? (
            <Button size="sm" onClick={() => onMore(page.pageInfo.endCursor!)}>
              {t("knowledgeBases.docs.moreChunks")}
            </Button>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
