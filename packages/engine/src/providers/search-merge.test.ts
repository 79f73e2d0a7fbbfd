import { describe, expect, it } from "vitest";
import type { PositionedChunk, ScoredChunk } from "./retrieval.js";
import { mergeSearchResults, neighbourLimit, neighbourRanges, orderNeighbours } from "./search-merge.js";

const hit = (id: string, score: number): ScoredChunk => ({ id, text: id, score, source: { documentId: "d", title: "t", chunkIndex: 0 } });
const at = (documentId: string, chunkIndex: number): PositionedChunk => ({ id: `${documentId}-${chunkIndex}`, text: "", source: { documentId, title: documentId, chunkIndex } });

describe("mergeSearchResults", () => {
  it("keeps each chunk once with its best score, best first, cut to topK", () => {
    const merged = mergeSearchResults([[hit("a", 0.9), hit("b", 0.5)], [hit("b", 0.95), hit("c", 0.4)]], 2);
    expect(merged.map((h) => [h.id, h.score])).toEqual([["b", 0.95], ["a", 0.9]]);
  });

  it("breaks ties by first appearance, query by query", () => {
    expect(mergeSearchResults([[hit("x", 0.5)], [hit("y", 0.5), hit("x", 0.5)]], 5).map((h) => h.id)).toEqual(["x", "y"]);
    expect(mergeSearchResults([], 3)).toEqual([]);
  });
});

describe("neighbourRanges", () => {
  it("clips at the first chunk and merges overlapping or touching windows per document", () => {
    const ranges = neighbourRanges([{ documentId: "a", chunkIndex: 1 }, { documentId: "a", chunkIndex: 4 }, { documentId: "a", chunkIndex: 9 }, { documentId: "b", chunkIndex: 0 }], 1);
    expect(ranges).toEqual([
      { documentId: "a", from: 0, to: 5 },
      { documentId: "a", from: 8, to: 10 },
      { documentId: "b", from: 0, to: 1 },
    ]);
    expect(neighbourLimit(ranges)).toBe(6 + 3 + 2);
  });
});

describe("orderNeighbours", () => {
  it("orders documents by their first anchor, chunks by index, and drops duplicates", () => {
    const ordered = orderNeighbours([{ documentId: "b", chunkIndex: 1 }, { documentId: "a", chunkIndex: 0 }], [at("a", 1), at("b", 2), at("a", 0), at("b", 1), at("a", 1)]);
    expect(ordered.map((c) => c.id)).toEqual(["b-1", "b-2", "a-0", "a-1"]);
  });
});
