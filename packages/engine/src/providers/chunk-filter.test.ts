import { describe, expect, it } from "vitest";
import { chunkFilterSchema, chunkMatchesFilter, isEmptyFilter, type FilterableChunk } from "./chunk-filter.js";

const chunk = (page: number | null, metadata: FilterableChunk["metadata"] = {}): FilterableChunk => ({
  source: { documentId: "d1", title: "manual.md", chunkIndex: 3, page },
  metadata,
});

describe("chunkMatchesFilter", () => {
  it("matches everything without a filter", () => {
    expect(chunkMatchesFilter(chunk(null), undefined)).toBe(true);
    expect(chunkMatchesFilter(chunk(null), {})).toBe(true);
  });

  it("requires every condition, any value of a list, and ranges on numbers only", () => {
    const c = chunk(4, { lang: "ko", year: 2025, label: "2025" });
    expect(chunkMatchesFilter(c, { documentId: ["d0", "d1"], source: "manual.md", page: { gte: 4, lte: 4 } })).toBe(true);
    expect(chunkMatchesFilter(c, { documentId: "d1", source: "manual" })).toBe(false);
    expect(chunkMatchesFilter(c, { metadata: { year: { gte: 2020 }, lang: ["en", "ko"] } })).toBe(true);
    expect(chunkMatchesFilter(c, { metadata: { label: { gte: 2020 } } })).toBe(false);
    expect(chunkMatchesFilter(c, { metadata: { year: "2025" } })).toBe(false);
  });

  it("never matches a page condition on a chunk without a page, or a key the chunk lacks", () => {
    expect(chunkMatchesFilter(chunk(null), { page: { lte: 100 } })).toBe(false);
    expect(chunkMatchesFilter(chunk(2), { metadata: { missing: false } })).toBe(false);
  });
});

describe("chunkFilterSchema", () => {
  it("accepts the documented shapes", () => {
    const filter = { documentId: ["a"], source: "x.md", page: { gte: 1 }, chunkIndex: [0, 1], metadata: { lang: "ko", year: { lte: 2025 }, tags: [true, 1, "a"] } };
    expect(chunkFilterSchema.parse(filter)).toEqual(filter);
  });

  it.each([
    [{ page: { gte: 5, lte: 1 } }, "page"],
    [{ page: {} }, "page"],
    [{ page: 1.5 }, "page"],
    [{ documentId: [] }, "documentId"],
    [{ metadata: { lang: null } }, "metadata"],
    [{ sources: "x" }, ""],
  ])("refuses %j", (filter, path) => {
    const result = chunkFilterSchema.safeParse(filter);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path.join(".") ?? "").toContain(path);
  });
});

describe("isEmptyFilter", () => {
  it("is true only without conditions", () => {
    expect(isEmptyFilter(undefined)).toBe(true);
    expect(isEmptyFilter({ metadata: {} })).toBe(true);
    expect(isEmptyFilter({ page: 1 })).toBe(false);
    expect(isEmptyFilter({ metadata: { a: 1 } })).toBe(false);
  });
});
