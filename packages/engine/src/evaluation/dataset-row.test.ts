import { describe, expect, it } from "vitest";
import { checkDatasetRow, DATASET_LIMITS, readJsonlRows } from "./dataset-row.js";

describe("dataset rows", () => {
  it("take inputs as a list of {nodeId, content} or a map, expected as any JSON, tags as strings", () => {
    expect(checkDatasetRow({ inputs: [{ nodeId: "q", content: "Hi" }], expected: { a: 1 }, tags: ["x", "x", "y"] })).toEqual({
      ok: true,
      row: { inputs: [{ nodeId: "q", content: "Hi" }], expected: { a: 1 }, tags: ["x", "y"] },
    });
    expect(checkDatasetRow({ inputs: { q: "Hi", context: "…" } })).toEqual({
      ok: true,
      row: { inputs: [{ nodeId: "q", content: "Hi" }, { nodeId: "context", content: "…" }], expected: null, tags: [] },
    });
  });

  it("refuse unknown fields, no inputs, a node given twice and values over the limits, each with its path", () => {
    expect(checkDatasetRow({ inputs: {}, expect: "typo" })).toMatchObject({ ok: false, issues: [{ code: "VALIDATION_FAILED", path: [] }] });
    expect(checkDatasetRow({ inputs: [] })).toMatchObject({ ok: false, issues: [{ code: "VALIDATION_FAILED", path: ["inputs"] }] });
    const twice = checkDatasetRow({ inputs: [{ nodeId: "q", content: "a" }, { nodeId: "q", content: "b" }] });
    expect(twice).toMatchObject({ ok: false, issues: [{ path: ["inputs", 1, "nodeId"] }] });
    const big = checkDatasetRow({
      inputs: { q: "x".repeat(DATASET_LIMITS.maxContentLength + 1) },
      expected: "y".repeat(DATASET_LIMITS.maxExpectedBytes),
      tags: Array.from({ length: DATASET_LIMITS.maxTags + 1 }, (_, index) => `t${index}`),
    });
    expect(big.ok ? [] : big.issues.map((issue) => [issue.code, issue.path.join(".")])).toEqual([
      ["LIMIT_EXCEEDED", "inputs.0.content"],
      ["LIMIT_EXCEEDED", "expected"],
      ["LIMIT_EXCEEDED", "tags"],
    ]);
  });

  it("refuse an expected value nesting past the depth limit without recursing into it", () => {
    let deep: unknown = 1;
    for (let level = 0; level < 5_000; level += 1) deep = [deep];
    expect(checkDatasetRow({ inputs: { q: "a" }, expected: deep })).toMatchObject({ ok: false, issues: [{ code: "LIMIT_EXCEEDED", path: ["expected"] }] });
  });
});

describe("JSONL imports", () => {
  it("read one row per line and skip blank lines", () => {
    const read = readJsonlRows('{"inputs": {"q": "2+2?"}, "expected": "4"}\r\n\n{"inputs": {"q": "3+3?"}, "expected": 6, "tags": ["math"]}\n');
    expect(read).toEqual({
      ok: true,
      rows: [
        { inputs: [{ nodeId: "q", content: "2+2?" }], expected: "4", tags: [] },
        { inputs: [{ nodeId: "q", content: "3+3?" }], expected: 6, tags: ["math"] },
      ],
    });
  });

  it("refuse the whole import with each bad line's number, before parsing a line too deep", () => {
    const read = readJsonlRows(['{"inputs": {"q": "ok"}}', "not json", `{"inputs": {"q": "a"}, "expected": ${"[".repeat(5_000)}${"]".repeat(5_000)}}`, '{"inputs": []}'].join("\n"));
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.issues.map((issue) => [issue.line, issue.code])).toEqual([
      [2, "VALIDATION_FAILED"],
      [3, "VALIDATION_FAILED"],
      [4, "VALIDATION_FAILED"],
    ]);
    expect(read.issues[1]!.message).toMatch(/deeper than 64 levels/);
  });

  it("refuse more than 10,000 rows in one call", () => {
    const text = Array.from({ length: DATASET_LIMITS.maxRowsPerCall + 1 }, (_, index) => JSON.stringify({ inputs: { q: String(index) } })).join("\n");
    const read = readJsonlRows(text);
    expect(read).toMatchObject({ ok: false, issues: [{ code: "LIMIT_EXCEEDED", line: DATASET_LIMITS.maxRowsPerCall + 1 }] });
  });
});
