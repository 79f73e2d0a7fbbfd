import { describe, expect, test } from "vitest";
import { buildPage, decodeCursor, encodeCursor, resolvePageSize } from "./pagination.js";

describe("cursors", () => {
  test("a cursor decodes to the key it was made from", () => {
    const key = { at: new Date("2026-01-02T03:04:05.678Z"), id: "4f1c-id|with-bar" };
    expect(decodeCursor(encodeCursor(key))).toEqual(key);
  });

  test("text that is not one of our cursors decodes to null", () => {
    expect(decodeCursor("not a cursor")).toBeNull();
    expect(decodeCursor(Buffer.from("yesterday|x").toString("base64url"))).toBeNull();
    expect(decodeCursor("")).toBeNull();
  });
});

describe("page size", () => {
  test("defaults to 20 and accepts 1..100", () => {
    expect(resolvePageSize(undefined)).toEqual({ ok: true, size: 20 });
    expect(resolvePageSize(100)).toEqual({ ok: true, size: 100 });
  });

  test("refuses 0, 101 and fractions", () => {
    for (const first of [0, 101, 2.5, -1]) expect(resolvePageSize(first).ok).toBe(false);
  });
});

describe("buildPage", () => {
  const rows = [3, 2, 1].map((n) => ({ id: `r${n}`, at: new Date(Date.UTC(2026, 0, n)) }));

  test("the extra row fetched means another page exists and is not shown", () => {
    const page = buildPage(rows, 2, 3, (row) => row.at, (row) => row.id);
    expect(page.edges.map((edge) => edge.node)).toEqual(["r3", "r2"]);
    expect(page.pageInfo.hasNextPage).toBe(true);
    expect(decodeCursor(page.pageInfo.endCursor!)).toEqual({ at: rows[1]!.at, id: "r2" });
  });

  test("the last page has no next page", () => {
    const page = buildPage(rows, 5, 3, (row) => row.at, (row) => row.id);
    expect(page.pageInfo.hasNextPage).toBe(false);
    expect(page.totalCount).toBe(3);
  });
});
