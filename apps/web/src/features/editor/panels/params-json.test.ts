import { describe, expect, it } from "vitest";
import { formatParams, parseParams } from "./params-json";

describe("parseParams", () => {
  it("reads a JSON object", () => {
    expect(parseParams('{"temperature": 0.2}')).toEqual({ ok: true, value: { temperature: 0.2 } });
  });

  it("treats an empty box as no params", () => {
    expect(parseParams("  \n")).toEqual({ ok: true, value: null });
  });

  it("refuses text that is not JSON, with the parser's message", () => {
    const parsed = parseParams("{temperature: 0.2}");
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error.kind).toBe("notJson");
  });

  it("refuses JSON that is not an object", () => {
    expect(parseParams("[1, 2]")).toEqual({ ok: false, error: { kind: "notObject" } });
    expect(parseParams("3")).toEqual({ ok: false, error: { kind: "notObject" } });
  });

  it("formats params for editing and leaves the box empty when there are none", () => {
    expect(formatParams({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(formatParams(null)).toBe("");
    expect(formatParams({})).toBe("");
  });
});
