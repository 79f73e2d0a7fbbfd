import { describe, expect, it } from "vitest";
import { jsonStringBytes, measureJson } from "./json-measure.js";
import { jsonTextDepth, parseJsonWithin } from "./json-text-depth.js";

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
};

describe("measureJson", () => {
  it("counts exactly the UTF-8 bytes JSON.stringify writes", () => {
    const samples: unknown[] = [
      null,
      true,
      -0.5e-7,
      "plain",
      'quote " and \\ and \n\t\u0001',
      "한국어 and emoji 😀 and a lone \ud800 surrogate",
      { a: [1, "two", { b: null }], "key \"q\"": false, skipped: undefined },
      [undefined, () => 1, 3],
      [],
      {},
    ];
    for (const sample of samples) {
      const expected = new TextEncoder().encode(JSON.stringify(sample)).length;
      expect(measureJson(sample), JSON.stringify(sample)).toEqual({ bytes: expected, depth: expect.any(Number), problem: null });
    }
  });

  it("reports the nesting depth and stops at the first level past the limit", () => {
    expect(measureJson(nested(3)).depth).toBe(3);
    expect(measureJson(nested(64), { maxDepth: 64 }).problem).toBeNull();
    expect(measureJson(nested(65), { maxDepth: 64 })).toMatchObject({ problem: "depth", depth: 65 });
    // 100,000 levels: no recursion, so no stack overflow, and the walk stops at level 65.
    expect(measureJson(nested(100_000), { maxDepth: 64 }).problem).toBe("depth");
  });

  it("stops at the byte limit on a ladder of shared references that would serialize to gigabytes", () => {
    let ladder: unknown = "x".repeat(1000);
    for (let level = 0; level < 40; level += 1) ladder = [ladder, ladder];
    const measure = measureJson(ladder, { maxBytes: 1_048_576 });
    expect(measure.problem).toBe("bytes");
    expect(measure.bytes).toBeLessThan(1_048_576 + 2000);
  });

  it("refuses what JSON cannot hold", () => {
    expect(measureJson({ n: 10n })).toMatchObject({ problem: "notJson", what: "a bigint" });
    expect(measureJson([new Map()])).toMatchObject({ problem: "notJson", what: "a Map" });
    expect(measureJson(new Uint8Array(2))).toMatchObject({ problem: "notJson", what: "a Uint8Array" });
  });

  it("measures strings without a copy, escapes included", () => {
    expect(jsonStringBytes("abc")).toBe(5);
    expect(jsonStringBytes("é")).toBe(4);
    expect(jsonStringBytes("\u0000")).toBe(8);
  });
});

describe("jsonTextDepth", () => {
  it("reads nesting from the text, ignoring brackets inside strings", () => {
    expect(jsonTextDepth('{"a": [1, {"b": "[[[["}]}')).toBe(3);
    expect(jsonTextDepth("prose ]] with [one] bracket")).toBe(1);
    expect(jsonTextDepth('"\\"[" [')).toBe(1);
  });

  it("refuses a text 5,000 levels deep before JSON.parse builds it", () => {
    const text = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    expect(() => parseJsonWithin(text, 64)).toThrow(expect.objectContaining({ code: "VALUE_TOO_DEEP" }));
    expect(parseJsonWithin("[[1]]", 64)).toEqual([[1]]);
  });
});
