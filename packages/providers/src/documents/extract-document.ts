import { WeftError } from "@weft/engine";
import { utf8, type DocumentKind } from "./document-type.js";

/**
 * A document's text: a PDF's text layer page by page, HTML's main content (Readability) as Markdown, a
 * DOCX as Markdown (mammoth → HTML → turndown), text as it is. CPU-heavy on untrusted bytes: the API runs
 * it on a worker thread with memory and time limits (apps/api retrieval/document-extraction.ts). The
 * extractors (pdf.js through unpdf, mammoth, Readability on linkedom, turndown) load on first use, so a
 * process that only detects types never loads them.
 */

export const DOCUMENT_LIMITS = {
  /** Pages of a PDF read at most (DOCUMENT_TOO_LARGE beyond). */
  maxPages: 2_000,
  /** Characters of extracted text at most (DOCUMENT_TOO_LARGE beyond). */
  maxChars: 2_000_000,
} as const;

export interface ExtractedDocument {
  /** The text: Markdown for HTML and DOCX, the pages joined by blank lines for a PDF. */
  text: string;
  /** PDF: the offset in `text` where each page starts (page n at index n - 1); null for other kinds. */
  pageStarts: number[] | null;
}

export interface ExtractOptions {
  maxPages?: number;
  maxChars?: number;
  /** Called after each PDF page (pages done, pages in all), so large files report progress. */
  onPage?: (done: number, total: number) => void;
}

const PAGE_SEPARATOR = "\n\n";

export async function extractDocument(bytes: Uint8Array, kind: DocumentKind, options: ExtractOptions = {}): Promise<ExtractedDocument> {
  const maxChars = options.maxChars ?? DOCUMENT_LIMITS.maxChars;
  const extracted = kind === "pdf" ? await pdfText(bytes, options) : { text: await markdownOf(bytes, kind), pageStarts: null };
  if (extracted.text.length > maxChars) throw new WeftError("DOCUMENT_TOO_LARGE", `the document has ${extracted.text.length} characters of text; the limit is ${maxChars}`);
  if (extracted.text.trim() === "") {
    throw new WeftError("DOCUMENT_NO_TEXT", kind === "pdf" ? "the PDF has no text layer (a scanned document?); only PDFs with text can be read" : "the document has no text");
  }
  return extracted;
}

async function pdfText(bytes: Uint8Array, options: ExtractOptions): Promise<ExtractedDocument> {
  const maxPages = options.maxPages ?? DOCUMENT_LIMITS.maxPages;
  const { getDocumentProxy } = await import("unpdf");
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A copy: pdf.js takes the buffer over.
    pdf = await getDocumentProxy(new Uint8Array(bytes));
  } catch (error) {
    throw new WeftError("DOCUMENT_INVALID", `the PDF cannot be read: ${(error as Error).message}`);
  }
  if (pdf.numPages > maxPages) throw new WeftError("DOCUMENT_TOO_LARGE", `the PDF has ${pdf.numPages} pages; the limit is ${maxPages}`);
  const pages: string[] = [];
  const pageStarts: number[] = [];
  let offset = 0;
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    const text = content.items
      .map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : ""))
      .join("")
      .replace(/[ \t]+\n/g, "\n")
      .trim();
    page.cleanup();
    pageStarts.push(offset);
    pages.push(text);
    offset += text.length + PAGE_SEPARATOR.length;
    options.onPage?.(number, pdf.numPages);
  }
  return { text: pages.join(PAGE_SEPARATOR), pageStarts };
}

async function markdownOf(bytes: Uint8Array, kind: Exclude<DocumentKind, "pdf">): Promise<string> {
  if (kind === "docx") {
    const { default: mammoth } = await import("mammoth");
    try {
      const { value } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) });
      return await htmlToMarkdown(value, false);
    } catch (error) {
      throw new WeftError("DOCUMENT_INVALID", `the DOCX cannot be read: ${(error as Error).message}`);
    }
  }
  const text = utf8(bytes);
  if (text === null) throw new WeftError("DOCUMENT_INVALID", "the document is not UTF-8 text");
  return kind === "html" ? htmlToMarkdown(text, true) : text.replace(/\r\n?/g, "\n");
}

/** HTML to Markdown; `mainContent`: only what Readability finds to be the article (navigation, ads, footers left out). */
export async function htmlToMarkdown(html: string, mainContent: boolean): Promise<string> {
  const [{ Readability }, { parseHTML }, { default: TurndownService }] = await Promise.all([import("@mozilla/readability"), import("linkedom"), import("turndown")]);
  let content = html;
  if (mainContent) {
    const { document } = parseHTML(html);
    const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], { charThreshold: 0 }).parse();
    content = article?.content ?? document.body?.innerHTML ?? html;
    if (article?.title && !/<h1[\s>]/i.test(content)) content = `<h1>${escapeHtml(article.title)}</h1>${content}`;
  }
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  turndown.remove(["script", "style", "noscript", "iframe"]);
  return turndown.turndown(content).replace(/\n{3,}/g, "\n\n").trim();
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
