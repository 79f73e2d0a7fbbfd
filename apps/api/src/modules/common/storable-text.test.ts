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
    expect(findUnstorableText(args)).toMatchObject({ path: ["input", "inputs", "1", "content"], message: expect.stringMatching(/^input\.inputs\.1\.content contains a NUL/) });
    expect(findUnstorableText({ params: { ["k\uD800"]: 1 } })).toMatchObject({ path: ["params"], message: expect.stringMatching(/^a key of params/) });
    expect(findUnstorableText({ at: new Date(0), n: 3, flag: true, none: null })).toBeNull();
  });
});
