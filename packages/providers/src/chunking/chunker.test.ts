import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { chunkText, type TextChunk } from "./chunker.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

function expectFaithful(source: string, chunks: readonly TextChunk[], size: number): void {
  chunks.forEach((chunk, i) => {
    expect(chunk.index).toBe(i);
    expect(chunk.text).toBe(source.slice(chunk.start, chunk.end));
    expect(chunk.text.length).toBeLessThanOrEqual(size);
    expect(chunk.text).toBe(chunk.text.trim());
  });
}

/** Every non-space character of the source lies in at least one chunk. */
function expectCoverage(source: string, chunks: readonly TextChunk[]): void {
  const covered = new Uint8Array(source.length);
  for (const chunk of chunks) covered.fill(1, chunk.start, chunk.end);
  for (let i = 0; i < source.length; i++) {
    if (!/\s/.test(source[i] as string)) expect(covered[i], `offset ${i} (${source.slice(i, i + 20)})`).toBe(1);
  }
}

const sentence = (n: number) => `Sentence number ${n} explains one small idea about the workflow engine.`;
const paragraph = (from: number, count: number) => Array.from({ length: count }, (_, i) => sentence(from + i)).join(" ");

describe("chunkText", () => {
  it("keeps a short text in one chunk", () => {
    expect(chunkText("  One sentence.  ")).toEqual([{ index: 0, text: "One sentence.", start: 2, end: 15, headingPath: [] }]);
  });

  it("returns no chunks for blank text", () => {
    expect(chunkText(" \n\n \t")).toEqual([]);
  });

  it("ends chunks at sentence boundaries, never inside a word", () => {
    const text = paragraph(1, 30);
    const chunks = chunkText(text, { size: 300, overlap: 0 });
    expect(chunks.length).toBeGreaterThan(5);
    expectFaithful(text, chunks, 300);
    expectCoverage(text, chunks);
    for (const chunk of chunks) {
      expect(chunk.text).toMatch(/^Sentence number \d+/);
      expect(chunk.text).toMatch(/engine\.$/);
    }
  });

  it("prefers a paragraph break over a later sentence break", () => {
    // Paragraph 1 is ~220 chars, paragraph 2 ~290: both fit in 400 only separately.
    const text = `${paragraph(1, 3)}\n\n${paragraph(4, 4)}`;
    const chunks = chunkText(text, { size: 400, overlap: 0 });
    expect(chunks.map((c) => c.text)).toEqual([paragraph(1, 3), paragraph(4, 4)]);
  });

  it("repeats whole trailing sentences of the previous chunk as overlap", () => {
    const text = paragraph(1, 12);
    const chunks = chunkText(text, { size: 300, overlap: 80 });
    for (let i = 1; i < chunks.length; i++) {
      const previous = chunks[i - 1] as TextChunk;
      const current = chunks[i] as TextChunk;
      expect(current.start).toBeLessThan(previous.end);
      expect(previous.end - current.start).toBeLessThanOrEqual(80);
      expect(current.text.startsWith("Sentence number")).toBe(true);
    }
    expectCoverage(text, chunks);
  });

  it("cuts an over-long sentence at spaces and an over-long word only when it must", () => {
    const longWord = "x".repeat(130);
    const text = `${"word ".repeat(40).trim()} ${longWord} end`;
    const chunks = chunkText(text, { size: 60, overlap: 0 });
    expectFaithful(text, chunks, 60);
    expectCoverage(text, chunks);
    const wordChunks = chunks.filter((c) => c.text.includes("word"));
    for (const chunk of wordChunks) expect(chunk.text).toMatch(/^(word ?)+$/);
    expect(chunks.filter((c) => c.text.includes("x")).map((c) => c.text)).toEqual(["x".repeat(60), "x".repeat(60), "x".repeat(10) + " end"]);
  });

  it("splits Korean prose after sentence endings such as 다. and 요.", () => {
    const text = "첫 번째 문장은 워크플로우를 설명합니다. 두 번째 문장도 있어요. 세 번째 문장은 노드를 다룬다. 마지막 문장입니다.";
    const chunks = chunkText(text, { size: 50, overlap: 0 });
    expectFaithful(text, chunks, 50);
    expectCoverage(text, chunks);
    for (const chunk of chunks) expect(chunk.text).toMatch(/[다요]\.$/);
  });

  it("chunks a long single-line Korean document without cutting words", () => {
    const text = fixture("codeweaver.ko.txt");
    const chunks = chunkText(text, { size: 500, overlap: 100 });
    expectFaithful(text, chunks, 500);
    expectCoverage(text, chunks);
    const wordChars = /[\p{L}\p{N}]/u;
    for (const chunk of chunks) {
      expect(wordChars.test(text[chunk.start - 1] ?? " ") && wordChars.test(chunk.text[0] ?? " ")).toBe(false);
      expect(wordChars.test(text[chunk.end] ?? " ") && wordChars.test(chunk.text.at(-1) ?? " ")).toBe(false);
    }
  });

  it("keeps Markdown headings with their section and records the heading path", () => {
    const text = fixture("query-flow.ko.md");
    const chunks = chunkText(text, { size: 400, overlap: 0, markdown: true });
    expectFaithful(text, chunks, 400);
    expectCoverage(text, chunks);
    const overview = chunks.find((c) => c.text.startsWith("## 개요"));
    expect(overview?.headingPath).toEqual(["Query Flow 보고서", "개요"]);
    expect(overview?.text).toContain("Query Flow는");
    const features = chunks.find((c) => c.text.startsWith("### 주요 특징"));
    expect(features?.headingPath).toEqual(["Query Flow 보고서", "개요", "주요 특징"]);
    // A heading followed directly by a sub-heading does not become a chunk of its own.
    expect(chunks.some((c) => /^#+ [^\n]*$/.test(c.text))).toBe(false);
  });

  it("does not treat # lines inside fenced code as headings", () => {
    const text = "# Guide\n\nIntro text.\n\n```sh\n# install\nnpm i\n```\n\nMore text.";
    const chunks = chunkText(text, { size: 1000, markdown: true });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.headingPath).toEqual(["Guide"]);
  });

  it("refuses sizes and overlaps outside the limits with a stable code", () => {
    expect(() => chunkText("x", { size: 10 })).toThrow(expect.objectContaining({ code: "INVALID_CHUNKING_OPTIONS" }));
    expect(() => chunkText("x", { size: 100, overlap: 60 })).toThrow(expect.objectContaining({ code: "INVALID_CHUNKING_OPTIONS" }));
    expect(() => chunkText("x", { size: 100.5 })).toThrow(expect.objectContaining({ code: "INVALID_CHUNKING_OPTIONS" }));
  });
});
