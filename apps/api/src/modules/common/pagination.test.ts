import { describe, expect, test } from "vitest";
import { buildPage, decodeCursor, encodeCursor, encodeOffsetCursor, readBound, readOffsetCursor, readPage } from "./pagination.js";

const cursorOf = (text: string) => Buffer.from(text, "utf8").toString("base64url");

describe("cursors", () => {
  test("a cursor decodes to the key it was made from", () => {
    const key = { at: new Date("2026-01-02T03:04:05.678Z"), id: "4f1c-id|with-bar" };
    expect(decodeCursor(encodeCursor(key))).toEqual(key);
  });

  test("text that is not one of our cursors decodes to null", () => {
    expect(decodeCursor("not a cursor")).toBeNull();
    expect(decodeCursor(cursorOf("yesterday|x"))).toBeNull();
    expect(decodeCursor("")).toBeNull();
  });

  test("a date no stored row can have (year 0 or before, after 9999) is not a cursor", () => {
    expect(decodeCursor(cursorOf("0000-01-01T00:00:00.000Z|x"))).toBeNull();
    expect(decodeCursor(cursorOf("-000001-01-01T00:00:00.000Z|x"))).toBeNull();
    expect(decodeCursor(cursorOf("+010000-01-01T00:00:00.000Z|x"))).toBeNull();
    expect(decodeCursor(cursorOf("0001-01-01T00:00:00.000Z|x"))).not.toBeNull();
  });
});

describe("page arguments", () => {
  test("default to 20 rows from the start and accept 1..100 with a cursor", () => {
    expect(readPage({})).toEqual({ size: 20, after: null });
    const at = new Date("2026-05-01T00:00:00.000Z");
    expect(readPage({ first: 100, after: encodeCursor({ at, id: "r1" }) })).toEqual({ size: 100, after: { at, id: "r1" } });
  });

  test("refuse 0, 101, fractions and negative numbers with BAD_USER_INPUT naming the argument", () => {
    for (const first of [0, 101, 2.5, -1]) {
      expect(() => readPage({ first })).toThrow(expect.objectContaining({ code: "BAD_USER_INPUT", extensions: expect.objectContaining({ path: ["first"] }) }));
    }
  });

  test("refuse a cursor that is not one of the list's with the same code", () => {
    for (const after of ["nope", cursorOf("-000001-01-01T00:00:00.000Z|x"), encodeOffsetCursor("chunk", 3)]) {
      expect(() => readPage({ after })).toThrow(expect.objectContaining({ code: "BAD_USER_INPUT", extensions: expect.objectContaining({ path: ["after"] }) }));
    }
  });

  test("a negative or oversized limit is refused, not clamped", () => {
    expect(readBound("limit", undefined, { max: 1000, fallback: 1000 })).toBe(1000);
    expect(readBound("limit", 5, { max: 1000, fallback: 1000 })).toBe(5);
    for (const limit of [-5, 0, 1001]) {
      expect(() => readBound("limit", limit, { max: 1000, fallback: 1000 })).toThrow(expect.objectContaining({ code: "BAD_USER_INPUT" }));
    }
  });

  test("position cursors read back their offset and refuse anything else with the same code", () => {
    expect(readOffsetCursor("chunk", encodeOffsetCursor("chunk", 42))).toBe(42);
    expect(readOffsetCursor("chunk", null)).toBe(0);
    expect(() => readOffsetCursor("chunk", encodeCursor({ at: new Date(), id: "x" }))).toThrow(expect.objectContaining({ code: "BAD_USER_INPUT" }));
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
