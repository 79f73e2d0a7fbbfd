import { render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { I18nProvider, LANGUAGE_STORAGE_KEY } from "@/i18n/i18n-provider";
import { ExecutionCard, RetrievalCard, type ExecutionSettingsView, type RetrievalSettingsView } from "./settings-cards";

const retrieval = (change: Partial<RetrievalSettingsView> = {}): RetrievalSettingsView => ({
  vectorStore: "pgvector",
  availableStores: ["pgvector"],
  embedder: { model: "weft-local-hash-v1", dimension: 512 },
  topK: { low: 2, medium: 6, high: 12 },
  hybridAlpha: 0.4,
  chunkSize: 200,
  chunkOverlap: 50,
  pgvectorEfSearch: 64,
  ...change,
});
const execution: ExecutionSettingsView = { runConcurrency: 3, processConcurrency: 9, parseRepair: false, providerTimeoutMs: 30_000 };

afterEach(() => window.localStorage.clear());

describe("settings cards", () => {
  it("shows the server's retrieval settings rather than fixed text", () => {
    render(
      <I18nProvider>
        <RetrievalCard settings={retrieval()} />
      </I18nProvider>,
    );
    const card = screen.getByRole("region", { name: "Knowledge-base retrieval" });
    expect(card.querySelector("[data-store]")?.textContent).toBe("pgvector (in the database)");
    expect(within(card).getByText("weft-local-hash-v1").closest("dd")?.textContent).toContain("512 dimensions");
    expect(within(card).getByText("low 2, medium 6, high 12")).toBeTruthy();
    expect(within(card).getByText(/^0\.4 \(1 = vectors only/)).toBeTruthy();
    expect(within(card).getByText("200 characters per chunk, 50 overlapping")).toBeTruthy();
    expect(within(card).getByText("64")).toBeTruthy();
  });

  it("names Weaviate and the stores older knowledge bases may still use", () => {
    render(
      <I18nProvider>
        <RetrievalCard settings={retrieval({ vectorStore: "weaviate", availableStores: ["pgvector", "weaviate"] })} />
      </I18nProvider>,
    );
    expect(screen.getByRole("region", { name: "Knowledge-base retrieval" }).querySelector("[data-store]")?.textContent).toBe(
      "Weaviate (WEAVIATE_URL) (older knowledge bases may also use: pgvector)",
    );
  });

  it("shows concurrency caps, parse repair and the provider timeout", () => {
    render(
      <I18nProvider>
        <ExecutionCard settings={execution} />
      </I18nProvider>,
    );
    const card = screen.getByRole("region", { name: "Run execution" });
    expect(within(card).getByText("3 nodes at once per run, 9 node executions and runs at once per server")).toBeTruthy();
    expect(within(card).getByText(/^Off:/)).toBeTruthy();
    expect(within(card).getByText("30 s per Mistral request")).toBeTruthy();
  });

  it("speaks Korean when Korean was chosen", async () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, "ko");
    render(
      <I18nProvider>
        <RetrievalCard settings={retrieval()} />
        <ExecutionCard settings={{ ...execution, parseRepair: true }} />
      </I18nProvider>,
    );
    expect(await screen.findByRole("region", { name: "지식 베이스 검색" })).toBeTruthy();
    expect(screen.getByText("낮음 2, 보통 6, 높음 12")).toBeTruthy();
    expect(screen.getByText(/^켜짐:/)).toBeTruthy();
  });
});
