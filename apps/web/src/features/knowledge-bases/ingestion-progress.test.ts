import { describe, expect, it } from "vitest";
import { applyIngestionStep, chunkPercent, ingestionProgress, NO_LIVE_INGESTION, pagePercent, withLiveStatus, type IngestionStep } from "./ingestion-progress";

const step = (documentId: string, status: IngestionStep["status"], phase: string, chunksDone = 0, chunksTotal = 0, error: string | null = null): IngestionStep => ({
  documentId, status, phase, chunksDone, chunksTotal, error,
});

describe("ingestion progress", () => {
  it("counts settled documents and chunks", () => {
    const progress = ingestionProgress([
      { status: "READY", chunkCount: 4 },
      { status: "INDEXING", chunkCount: 0 },
      { status: "FAILED", chunkCount: 0 },
      { status: "PENDING", chunkCount: 0 },
    ]);
    expect(progress).toEqual({ total: 4, ready: 1, failed: 1, inFlight: 2, pct: 50, chunks: 4 });
    expect(ingestionProgress([])).toMatchObject({ total: 0, pct: 100 });
  });

  it("follows each document's steps from the subscription: queued, embedding with chunk counts, ready", () => {
    const steps = [
      step("a", "PENDING", "queued"),
      step("b", "PENDING", "queued"),
      step("a", "INDEXING", "chunking"),
      step("a", "INDEXING", "embedding", 64, 100),
    ];
    const live = steps.reduce(applyIngestionStep, NO_LIVE_INGESTION);
    expect(live).toEqual({
      a: { status: "INDEXING", phase: "embedding", chunksDone: 64, chunksTotal: 100, error: null, pagesDone: null, pagesTotal: null },
      b: { status: "PENDING", phase: "queued", chunksDone: 0, chunksTotal: 0, error: null, pagesDone: null, pagesTotal: null },
    });
    expect(chunkPercent(live["a"]!)).toBe(64);
    expect(chunkPercent(live["b"]!)).toBeNull();
    const done = applyIngestionStep(applyIngestionStep(live, step("a", "READY", "ready", 100, 100)), step("b", "FAILED", "failed", 0, 0, "EMBEDDING_FAILED: refused"));
    expect(done["a"]).toMatchObject({ status: "READY", chunksDone: 100 });
    expect(done["b"]).toMatchObject({ status: "FAILED", error: "EMBEDDING_FAILED: refused" });
  });

  it("reports a PDF's pages while its text is extracted, then its chunks", () => {
    const reading = applyIngestionStep(NO_LIVE_INGESTION, { ...step("a", "INDEXING", "extracting"), pagesDone: 3, pagesTotal: 12 });
    expect(pagePercent(reading["a"]!)).toBe(25);
    const embedding = applyIngestionStep(reading, step("a", "INDEXING", "embedding", 10, 40));
    expect(pagePercent(embedding["a"]!)).toBeNull();
    expect(chunkPercent(embedding["a"]!)).toBe(25);
  });

  it("keeps a settled outcome against a late step, but a re-index queues the document again", () => {
    const ready = applyIngestionStep(NO_LIVE_INGESTION, step("a", "READY", "ready", 3, 3));
    expect(applyIngestionStep(ready, step("a", "INDEXING", "embedding", 1, 3))).toBe(ready);
    expect(applyIngestionStep(ready, step("a", "PENDING", "queued"))["a"]).toMatchObject({ status: "PENDING" });
  });

  it("forgets a removed document", () => {
    const live = applyIngestionStep(NO_LIVE_INGESTION, step("a", "INDEXING", "embedding", 1, 3));
    expect(applyIngestionStep(live, step("a", null, "removed"))).toEqual({});
  });

  it("shows the live status over the fetched one, and the fetched one when nothing is known", () => {
    const fetched = { id: "a", status: "PENDING" as const, error: null, chunkCount: 0 };
    const live = applyIngestionStep(NO_LIVE_INGESTION, step("a", "INDEXING", "embedding", 32, 100));
    expect(withLiveStatus(fetched, live)).toMatchObject({ status: "INDEXING", live: { chunksDone: 32 } });
    expect(withLiveStatus(fetched, NO_LIVE_INGESTION)).toEqual({ ...fetched, live: null });
  });

  it("counts a document's chunks from its READY step before the list is fetched again", () => {
    const fetched = { id: "a", status: "PENDING" as const, error: null, chunkCount: 0 };
    const ready = applyIngestionStep(NO_LIVE_INGESTION, step("a", "READY", "ready", 7, 7));
    expect(withLiveStatus(fetched, ready)).toMatchObject({ status: "READY", chunkCount: 7 });
    const indexing = applyIngestionStep(NO_LIVE_INGESTION, step("a", "INDEXING", "embedding", 3, 7));
    expect(withLiveStatus(fetched, indexing)).toMatchObject({ status: "INDEXING", chunkCount: 0 });
  });
});
