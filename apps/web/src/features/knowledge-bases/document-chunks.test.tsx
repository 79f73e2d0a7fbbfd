import { fireEvent, render, screen } from "@testing-library/react";
import { Client, fetchExchange, Provider } from "urql";
import { describe, expect, it } from "vitest";
import { I18nProvider } from "@/i18n/i18n-provider";
import { CHUNK_PAGE_SIZE, DocumentChunks } from "./document-chunks";

/**
 * The component against an HTTP double of `documentChunks` (offset cursors, as the API's): checks that
 * it asks by document id and walks the pages with the cursor it was given. The real query runs in the
 * API's integration tests and the e2e test.
 */
function chunkServer(total: number) {
  const requests: { documentId: string; first: number; after: string | null }[] = [];
  const fetchDouble = async (_url: RequestInfo | URL, init?: RequestInit) => {
    const { variables } = JSON.parse(String(init?.body)) as { variables: { documentId: string; first: number; after: string | null } };
    requests.push(variables);
    const offset = variables.after ? Number(variables.after.slice("at:".length)) : 0;
    const indexes = Array.from({ length: Math.max(0, Math.min(variables.first, total - offset)) }, (_, k) => offset + k);
    const end = offset + indexes.length;
    const documentChunks = {
      __typename: "KnowledgeBaseChunkConnection",
      totalCount: total,
      pageInfo: { __typename: "PageInfo", hasNextPage: end < total, endCursor: indexes.length > 0 ? `at:${end}` : null },
      edges: indexes.map((index) => ({
        __typename: "KnowledgeBaseChunkEdge",
        node: { __typename: "KnowledgeBaseChunk", id: `doc#${index}`, text: `chunk ${index} text`, source: { __typename: "ChunkSource", chunkIndex: index, page: null } },
      })),
    };
    return new Response(JSON.stringify({ data: { documentChunks } }), { headers: { "content-type": "application/json" } });
  };
  const client = new Client({ url: "http://api.test/graphql", exchanges: [fetchExchange], fetch: fetchDouble, preferGetMethod: false });
  return { client, requests };
}

describe("document chunks", () => {
  it("asks for one document's chunks by its id and loads the next page on request", async () => {
    const total = CHUNK_PAGE_SIZE + 3;
    const server = chunkServer(total);
    render(
      <Provider value={server.client}>
        <I18nProvider>
          <DocumentChunks documentId="doc-1" />
        </I18nProvider>
      </Provider>,
    );
    expect(await screen.findByText("chunk 0 text")).toBeTruthy();
    expect(screen.getByText(`First ${CHUNK_PAGE_SIZE} of ${total} chunks`)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Show more chunks" }));
    expect(await screen.findByText(`chunk ${total - 1} text`)).toBeTruthy();
    expect(screen.getByTestId("document-chunks").querySelectorAll(".chunk")).toHaveLength(total);
    expect(screen.queryByRole("button", { name: "Show more chunks" })).toBeNull();
    expect(server.requests).toEqual([
      { documentId: "doc-1", first: CHUNK_PAGE_SIZE, after: null },
      { documentId: "doc-1", first: CHUNK_PAGE_SIZE, after: `at:${CHUNK_PAGE_SIZE}` },
    ]);
  });

  it("says so when the document has no chunks", async () => {
    const server = chunkServer(0);
    render(
      <Provider value={server.client}>
        <I18nProvider>
          <DocumentChunks documentId="doc-2" />
        </I18nProvider>
      </Provider>,
    );
    expect(await screen.findByText("No chunks (yet).")).toBeTruthy();
  });
});
