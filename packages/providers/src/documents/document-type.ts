import { WeftError } from "@weft/engine";
import { fileTypeFromBuffer } from "file-type";

/**
 * What a file is, decided by its content (magic bytes), never by its name or declared type: a PDF, a
 * DOCX, HTML, or UTF-8 text. A declared type or a name only tells Markdown from plain text, which
 * bytes cannot. Anything else is DOCUMENT_TYPE_UNSUPPORTED.
 */

export type DocumentKind = "pdf" | "docx" | "html" | "markdown" | "text";

export const DOCUMENT_MIME_TYPES: Record<DocumentKind, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  html: "text/html",
  markdown: "text/markdown",
  text: "text/plain",
};

/** Kinds whose text must be extracted (CPU-heavy, untrusted: off the request thread, see extract-document.ts). */
export function needsExtraction(kind: DocumentKind): boolean {
  return kind === "pdf" || kind === "docx" || kind === "html";
}

/** Kinds whose text is Markdown once extracted (headings give chunks their heading path). */
export function isMarkdownKind(kind: DocumentKind): boolean {
  return kind === "markdown" || kind === "html" || kind === "docx";
}

export function kindOfMimeType(mimeType: string): DocumentKind | null {
  const found = Object.entries(DOCUMENT_MIME_TYPES).find(([, mime]) => mime === mimeType);
  return found ? (found[0] as DocumentKind) : null;
}

const HTML_START = /^\s*(<!--[\s\S]*?-->\s*)*(<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i;

export async function detectDocumentKind(bytes: Uint8Array, hints: { name?: string | null; mimeType?: string | null } = {}): Promise<DocumentKind> {
  const sniffed = await fileTypeFromBuffer(bytes);
  if (sniffed?.mime === DOCUMENT_MIME_TYPES.pdf) return "pdf";
  if (sniffed?.mime === DOCUMENT_MIME_TYPES.docx) return "docx";
  if (sniffed) throw unsupported(`${sniffed.mime} (.${sniffed.ext})`);
  const text = utf8(bytes);
  if (text === null) throw unsupported("binary data that is neither PDF, DOCX, HTML nor UTF-8 text");
  if (HTML_START.test(text.slice(0, 4096))) return "html";
  const declared = hints.mimeType?.split(";")[0]?.trim().toLowerCase();
  if (declared === "text/markdown" || declared === "text/x-markdown" || /\.(md|markdown|mdx)$/i.test(hints.name ?? "")) return "markdown";
  return "text";
}

/** The bytes as UTF-8 text (a byte-order mark dropped), or null for bytes that are not text (invalid UTF-8, NUL). */
export function utf8(bytes: Uint8Array): string | null {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
    return text.includes("\u0000") ? null : text;
  } catch {
    return null;
  }
}

function unsupported(what: string): WeftError {
  return new WeftError("DOCUMENT_TYPE_UNSUPPORTED", `the file is ${what}; supported are PDF (with a text layer), DOCX, HTML, Markdown and plain text`);
}
