import { describe, expect, it } from "vitest";
import { isAcceptedFile, mimeTypeFor, readDocumentFiles, titleFor } from "./document-files";

describe("document files", () => {
  it("accepts text and Markdown files whatever the case of the extension", () => {
    expect(isAcceptedFile("notes.txt")).toBe(true);
    expect(isAcceptedFile("README.MD")).toBe(true);
    expect(isAcceptedFile("guide.markdown")).toBe(true);
    expect(isAcceptedFile("report.pdf")).toBe(false);
    expect(isAcceptedFile(".md")).toBe(false);
  });

  it("titles a document by its file name and types it by extension", () => {
    expect(titleFor("Getting started.md")).toBe("Getting started");
    expect(mimeTypeFor("a.txt")).toBe("text/plain");
    expect(mimeTypeFor("a.md")).toBe("text/markdown");
  });

  it("reads accepted files as text and names the refused ones", async () => {
    const files = [
      new File(["# Weft\nworkflows"], "weft.md", { type: "text/markdown" }),
      new File(["%PDF"], "scan.pdf", { type: "application/pdf" }),
      new File(["plain 한국어"], "plain.txt", { type: "text/plain" }),
    ];
    const { documents, refused } = await readDocumentFiles(files);
    expect(documents).toEqual([
      { title: "weft", content: "# Weft\nworkflows", mimeType: "text/markdown" },
      { title: "plain", content: "plain 한국어", mimeType: "text/plain" },
    ]);
    expect(refused).toEqual(["scan.pdf"]);
  });
});
