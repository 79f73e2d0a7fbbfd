import { describe, expect, test } from "vitest";
import { findUnstorableText, unstorableReason } from "./storable-text.js";

describe("storable text", () => {
  test("ordinary text in any script, emoji (surrogate pairs) included, can be stored", () => {
    for (const text of ["", "plain", "보고서 개요", "naïve — “quoted”", "🧵 weft 👍🏽", "tab\tand\nnewline"]) {
      expect(unstorableReason(text)).toBeNull();
    }
  });

  test("a NUL character and each kind of unpaired surrogate are named with their position", () => {
    expect(unstorableReason("a\u0000b")).toMatch(/NUL character \(U\+0000\) at position 1/);
    expect(unstorableReason("ab\uD83D")).toMatch(/unpaired surrogate \(U\+D83D\) at position 2/);
    expect(unstorableReason("\uDC00x")).toMatch(/unpaired surrogate \(U\+DC00\) at position 0/);
    expect(unstorableReason("\uDC00\uD800")).toMatch(/U\+DC00/);
  });

  test("the search walks input objects, lists and JSON keys, and reports the path of the first problem", () => {
    const args = { workflowId: "wf", input: { inputs: [{ nodeId: "in", content: "ok" }, { nodeId: "in2", content: "x\u0000" }] } };
    expect(findUnstorableText(args, [], 64)).toMatchObject({
      code: "VALIDATION_FAILED",
      path: ["input", "inputs", "1", "content"],
      message: expect.stringMatching(/^input\.inputs\.1\.content contains a NUL/),
    });
    expect(findUnstorableText({ params: { ["k\uD800"]: 1 } }, [], 64)).toMatchObject({ path: ["params"], message: expect.stringMatching(/^a key of params/) });
    expect(findUnstorableText({ at: new Date(0), n: 3, flag: true, none: null }, [], 64)).toBeNull();
  });

  test("the first problem in document order is the one reported", () => {
    expect(findUnstorableText({ a: ["ok", "b\u0000"], b: "c\u0000" }, ["x"], 64)?.path).toEqual(["x", "a", "1"]);
  });

  test("a value nested deeper than the limit is refused with VALUE_TOO_DEEP at the checked value's path, however deep it goes", () => {
    const deep = (levels: number): unknown => {
      let value: unknown = "leaf";
      for (let level = 0; level < levels; level += 1) value = level % 2 === 0 ? [value] : { k: value };
      return value;
    };
    // A scalar is 0 levels deep, [] and {} are 1: 64 containers pass a limit of 64, 65 do not.
    expect(findUnstorableText(deep(64), ["document"], 64)).toBeNull();
    expect(findUnstorableText(deep(65), ["document"], 64)).toEqual({
      code: "VALUE_TOO_DEEP",
      path: ["document"],
      message: "document is nested deeper than 64 levels (WEFT_MAX_VALUE_DEPTH)",
    });
    // The reported overflow: 10,000 levels (and far more) cost no stack.
    expect(findUnstorableText(deep(100_000), ["document"], 64)?.code).toBe("VALUE_TOO_DEEP");
    expect(findUnstorableText(deep(100_000), ["document"], Infinity)).toBeNull();
  });
});
