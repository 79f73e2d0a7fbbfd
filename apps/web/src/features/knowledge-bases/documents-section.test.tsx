import { render, screen } from "@testing-library/react";
import { Client, fetchExchange, Provider } from "urql";
import { describe, expect, it } from "vitest";
import { I18nProvider } from "@/i18n/i18n-provider";
import { ToastProvider } from "@/ui/toast";
import { DocumentsSection, type DocumentRow } from "./documents-section";
import { applyIngestionStep, NO_LIVE_INGESTION, type LiveIngestion } from "./ingestion-progress";

/** The documents table with live steps from the subscription folded in (no request is made). */
const client = new Client({ url: "http://api.test/graphql", exchanges: [fetchExchange], preferGetMethod: false });

const row = (id: string, title: string, status: DocumentRow["node"]["status"]): DocumentRow => ({
  cursor: id,
  node: { id, title, mimeType: "text/plain", status, error: null, chunkCount: 0, createdAt: "2026-11-21T10:00:00.000Z" },
});

function show(live: LiveIngestion, language: "en" | "ko" = "en", connected = true) {
  return render(
    <Provider value={client}>
      <I18nProvider initialLanguage={language}>
        <ToastProvider>
          <DocumentsSection rows={[row("a", "Tea guide", "PENDING"), row("b", "Kimchi", "PENDING")]} live={live} connected={connected} onChanged={() => undefined} />
        </ToastProvider>
      </I18nProvider>
    </Provider>,
  );
}

describe("documents section", () => {
  it("shows each document's live status and its chunk progress while it is embedded", () => {
    const live = [
      { documentId: "a", status: "INDEXING" as const, phase: "embedding", chunksDone: 32, chunksTotal: 100, error: null },
    ].reduce(applyIngestionStep, NO_LIVE_INGESTION);
    const { container } = show(live);
    expect(container.querySelector('[data-document-status="INDEXING"]')?.textContent).toContain("Tea guide");
    expect(container.querySelector('[data-document-status="PENDING"]')?.textContent).toContain("Kimchi");
    expect(screen.getByTestId("document-progress").textContent).toContain("32 of 100 chunks embedded");
  });

  it("speaks Korean and says when live updates are paused", () => {
    const live = applyIngestionStep(NO_LIVE_INGESTION, { documentId: "b", status: "INDEXING", phase: "embedding", chunksDone: 1, chunksTotal: 4, error: null });
    show(live, "ko", false);
    expect(screen.getByTestId("document-progress").textContent).toContain("청크 4개 중 1개 임베딩 완료");
    expect(screen.getByTestId("ingestion-progress").textContent).toContain("실시간 업데이트 중단됨");
  });
});
