import { describe, expect, it } from "vitest";
import { mimeTypeFor, readDocumentFiles, titleFor } from "./document-files";

const base64 = (text: string) => Buffer.from(text).toString("base64");

describe("document files", () => {
  it("titles a document by its file name and declares Markdown by extension, else the browser's type", () => {
    expect(titleFor("Getting started.md")).toBe("Getting started");
    expect(mimeTypeFor("a.MD", "")).toBe("text/markdown");
    expect(mimeTypeFor("a.pdf", "application/pdf")).toBe("application/pdf");
    expect(mimeTypeFor("a.bin", "")).toBeUndefined();
  });

  it("sends every picked file as base64, PDFs and unknown names included: the API decides by content", async () => {
    const files = [
      new File(["# Weft\nworkflows"], "weft.md", { type: "" }),
      new File(["%PDF-1.7"], "scan.pdf", { type: "application/pdf" }),
      new File(["plain 한국어"], "plain.txt", { type: "text/plain" }),
    ];
    expect(await readDocumentFiles(files)).toEqual([
      { title: "weft", content: base64("# Weft\nworkflows"), encoding: "BASE64", mimeType: "text/markdown" },
      { title: "scan", content: base64("%PDF-1.7"), encoding: "BASE64", mimeType: "application/pdf" },
      { title: "plain", content: base64("plain 한국어"), encoding: "BASE64", mimeType: "text/plain" },
    ]);
  });
});
