import { describe, expect, test } from "vitest";
import { docxWith, htmlPage, pdfWithText, scannedPdf } from "../testing/document-fixtures.js";
import { detectDocumentKind } from "./document-type.js";
import { extractDocument } from "./extract-document.js";

const PARAGRAPH = "Weft composes language-model workflows from typed nodes and runs them in parallel wherever it can.";

describe("documents are recognised by their content", () => {
  test("a PDF, a DOCX, HTML and text are told apart whatever their name or declared type says", async () => {
    const pdf = await pdfWithText([["hello"]]);
    const docx = await docxWith("Title", [PARAGRAPH]);
    expect(await detectDocumentKind(pdf, { name: "notes.txt", mimeType: "text/plain" })).toBe("pdf");
    expect(await detectDocumentKind(docx, { name: "report.pdf", mimeType: "application/pdf" })).toBe("docx");
    expect(await detectDocumentKind(Buffer.from(htmlPage("Page", [PARAGRAPH])), { name: "page.md" })).toBe("html");
    expect(await detectDocumentKind(Buffer.from("# Title\n\ntext"), { name: "readme.md" })).toBe("markdown");
    expect(await detectDocumentKind(Buffer.from("# Title\n\ntext"), { mimeType: "application/pdf" })).toBe("text");
  });

  test("images, archives and other binaries are DOCUMENT_TYPE_UNSUPPORTED, naming what they are", async () => {
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgYAAAAAMAASsJTYQAAAAASUVORK5CYII=", "base64");
    await expect(detectDocumentKind(png, { name: "scan.pdf" })).rejects.toMatchObject({ code: "DOCUMENT_TYPE_UNSUPPORTED", message: expect.stringContaining("image/png") });
    await expect(detectDocumentKind(Buffer.from([0, 1, 2, 3, 255, 254]))).rejects.toMatchObject({ code: "DOCUMENT_TYPE_UNSUPPORTED" });
  });
});

describe("text is extracted", () => {
  test("a PDF's text layer page by page, with where each page starts and progress per page", async () => {
    const pdf = await pdfWithText([["First page, first line.", "First page, second line."], ["Second page."], ["Third page."]]);
    const progress: number[] = [];
    const { text, pageStarts } = await extractDocument(pdf, "pdf", { onPage: (done) => progress.push(done) });
    expect(progress).toEqual([1, 2, 3]);
    expect(pageStarts).toHaveLength(3);
    expect(text.slice(pageStarts![0], pageStarts![1]).trim()).toBe("First page, first line.\nFirst page, second line.");
    expect(text.slice(pageStarts![1], pageStarts![2]).trim()).toBe("Second page.");
    expect(text.slice(pageStarts![2]).trim()).toBe("Third page.");
  });

  test("a scanned PDF has no text: DOCUMENT_NO_TEXT; one over the page limit: DOCUMENT_TOO_LARGE", async () => {
    await expect(extractDocument(await scannedPdf(), "pdf")).rejects.toMatchObject({ code: "DOCUMENT_NO_TEXT" });
    await expect(extractDocument(await pdfWithText([["a"], ["b"], ["c"]]), "pdf", { maxPages: 2 })).rejects.toMatchObject({ code: "DOCUMENT_TOO_LARGE" });
  });

  test("HTML keeps its article as Markdown and leaves out navigation, scripts and footer", async () => {
    const { text, pageStarts } = await extractDocument(Buffer.from(htmlPage("Release notes", [PARAGRAPH, "Second paragraph of the article."])), "html");
    expect(pageStarts).toBeNull();
    expect(text).toContain("# Release notes");
    expect(text).toContain(PARAGRAPH);
    expect(text).not.toMatch(/Pricing|Cookie settings|tracking/);
  });

  test("a DOCX becomes Markdown with its headings", async () => {
    const { text } = await extractDocument(await docxWith("Quarterly report", [PARAGRAPH]), "docx");
    expect(text).toBe(`# Quarterly report\n\n${PARAGRAPH}`);
  });

  test("a corrupt PDF or DOCX is DOCUMENT_INVALID", async () => {
    await expect(extractDocument(Buffer.from("%PDF-1.7\n garbage"), "pdf")).rejects.toMatchObject({ code: "DOCUMENT_INVALID" });
    await expect(extractDocument(Buffer.from("PK\u0003\u0004 not a zip"), "docx")).rejects.toMatchObject({ code: "DOCUMENT_INVALID" });
  });
});
