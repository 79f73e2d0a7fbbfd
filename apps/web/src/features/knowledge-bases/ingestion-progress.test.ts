import { describe, expect, it } from "vitest";
import { ingestionProgress, pollIntervalMs } from "./ingestion-progress";

describe("ingestion progress", () => {
  it("counts settled documents and chunks", () => {
    const progress = ingestionProgress([
      { status: "READY", chunkCount: 4 },
      { status: "INDEXING", chunkCount: 0 },
      { status: "FAILED", chunkCount: 0 },
      { status: "PENDING", chunkCount: 0 },
    ]);
    expect(progress).toEqual({ total: 4, ready: 1, failed: 1, inFlight: 2, pct: 50, chunks: 4 });
    expect(pollIntervalMs(progress)).toBe(1000);
  });

  it("stops polling once every document has settled, and treats none as done", () => {
    expect(pollIntervalMs(ingestionProgress([{ status: "READY", chunkCount: 2 }]))).toBeNull();
    expect(ingestionProgress([])).toMatchObject({ total: 0, pct: 100 });
  });
});
