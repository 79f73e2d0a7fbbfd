import { describe, expect, it } from "vitest";
import { formatContext } from "./context-format.js";

describe("formatContext", () => {
  it("numbers hits and labels them with title, chunk, page and score", () => {
    const text = formatContext([
      { id: "a", text: "alpha", score: 0.91234, source: { documentId: "d1", title: "Guide", chunkIndex: 2, page: 7 } },
      { id: "b", text: "beta", score: 0.5, source: { documentId: "d2", title: "Notes", chunkIndex: 0 } },
    ]);
    expect(text).toBe("[1] Guide (chunk 2, page 7; score 0.912)\nalpha\n\n[2] Notes (chunk 0; score 0.500)\nbeta");
  });

  it("formats no hits as empty text", () => {
    expect(formatContext([])).toBe("");
  });
});
