import { describe, expect, it } from "vitest";
import { checkChunking, checkKnowledgeBaseName, checkSearch, prepareDocuments } from "./knowledge-base-input.validation.js";

describe("knowledge-base input checks", () => {
  it("accepts simple names and refuses spaces, leading punctuation and over-long names", () => {
    expect(checkKnowledgeBaseName("support-faq.v2", ["name"])).toEqual([]);
    expect(checkKnowledgeBaseName("has space", ["name"])[0]?.code).toBe("VALIDATION_FAILED");
    expect(checkKnowledgeBaseName("-dash", ["name"])[0]?.code).toBe("VALIDATION_FAILED");
    expect(checkKnowledgeBaseName("n".repeat(65), ["name"])[0]?.code).toBe("LIMIT_EXCEEDED");
  });

  it("points a chunking problem at the field that causes it", () => {
    expect(checkChunking(10, null)).toMatchObject({ ok: false, errors: [{ path: ["input", "chunkSize"] }] });
    expect(checkChunking(100, 80)).toMatchObject({ ok: false, errors: [{ path: ["input", "chunkOverlap"] }] });
    expect(checkChunking(null, null)).toMatchObject({ ok: true });
  });

  it("refuses the whole batch when one document is bad, naming its index and the code", async () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgYAAAAAMAASsJTYQAAAAASUVORK5CYII=";
    const result = await prepareDocuments([
      { title: "fine", content: "text" },
      { title: "slides.pdf", content: png, encoding: "BASE64", mimeType: "application/pdf" },
      { title: "  ", content: "x" },
    ]);
    expect(result).toMatchObject({ ok: false, errors: [{ code: "DOCUMENT_TYPE_UNSUPPORTED", path: ["documents", "1"] }, { code: "VALIDATION_FAILED", path: ["documents", "2"] }] });
  });

  it("decodes base64 files and guesses Markdown from the title", async () => {
    const result = await prepareDocuments([{ title: "notes.md", content: Buffer.from("# 제목\n\n본문").toString("base64"), encoding: "BASE64" }]);
    expect(result).toMatchObject({ ok: true, value: [{ mimeType: "text/markdown", content: "# 제목\n\n본문" }] });
  });

  it("bounds the number of documents and the search arguments", async () => {
    const many = Array.from({ length: 101 }, (_, k) => ({ title: `d${k}`, content: "c" }));
    expect(await prepareDocuments(many)).toMatchObject({ ok: false, errors: [{ code: "LIMIT_EXCEEDED" }] });
    expect(checkSearch({ query: " " }).map((error) => error.path)).toEqual([["input", "query"]]);
    expect(checkSearch({ query: "q", topK: 0, alpha: 1.5 }).map((error) => error.path)).toEqual([
      ["input", "topK"],
      ["input", "alpha"],
    ]);
    expect(checkSearch({ query: "q", topK: 50, alpha: 0 })).toEqual([]);
  });
});
