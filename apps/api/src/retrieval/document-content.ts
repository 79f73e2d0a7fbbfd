import { createHash } from "node:crypto";
import { hasVisibleCharacter, WeftError } from "@weft/engine";
import { detectDocumentKind, DOCUMENT_MIME_TYPES, needsExtraction, type DocumentKind } from "@weft/providers/documents";
import { unstorableReason } from "../modules/common/storable-text.js";
import { EXTRACTION_LIMITS } from "./document-extraction.js";

/**
 * Turning what a client sends (text, or a file's bytes in base64) into a document we can index: its
 * kind from its content (PDF, DOCX, HTML, Markdown or text; document-type.ts), UTF-8 decoding, size
 * limits, and the content hash used to detect duplicates. A PDF, DOCX or HTML file is kept as sent
 * (`source`): its text is extracted by the ingestion worker, off the request, page by page.
 */

export const MAX_DOCUMENT_CHARS = 2_000_000;
export const MAX_TITLE_CHARS = 300;

export interface RawDocument {
  title: string;
  content: string;
  /** The declared type, if any: only tells Markdown from plain text (the content decides the rest). */
  mimeType?: string | null;
  /** "TEXT" (default) or "BASE64" for a file's bytes. */
  encoding?: "TEXT" | "BASE64" | null;
}

export interface PreparedDocument {
  title: string;
  /** The text to chunk; empty until extracted when `source` is set. */
  content: string;
  /** The kind's MIME type (text/plain, text/markdown, text/html, application/pdf, the DOCX type). */
  mimeType: string;
  contentHash: string;
  /** A PDF, DOCX or HTML file as sent, for the ingestion worker to extract. */
  source?: Uint8Array<ArrayBuffer>;
}

/** sha256 of the text with line endings unified, so the same file saved on Windows is still a duplicate. */
export function contentHash(content: string): string {
  return createHash("sha256").update(content.replace(/\r\n?/g, "\n"), "utf8").digest("hex");
}

export async function prepareDocument(raw: RawDocument): Promise<PreparedDocument> {
  const title = raw.title.trim();
  if (!hasVisibleCharacter(title) || title.length > MAX_TITLE_CHARS) {
    throw new WeftError("INVALID_DOCUMENT", `A document title must be 1 to ${MAX_TITLE_CHARS} characters, at least one of them visible.`);
  }
  const bytes = decode(title, raw);
  const kind = await detectDocumentKind(bytes, { name: title, mimeType: raw.mimeType });
  if (needsExtraction(kind)) {
    if (bytes.byteLength > EXTRACTION_LIMITS.maxFileBytes) {
      throw new WeftError("DOCUMENT_TOO_LARGE", `Document "${title}" has ${bytes.byteLength} bytes; the limit is ${EXTRACTION_LIMITS.maxFileBytes}.`);
    }
    return { title, content: "", mimeType: DOCUMENT_MIME_TYPES[kind], contentHash: createHash("sha256").update(bytes).digest("hex"), source: new Uint8Array(bytes) };
  }
  return prepareText(title, bytes, kind);
}

/** A text or Markdown document: its text, checked for what the database cannot store and for its size. */
function prepareText(title: string, bytes: Buffer, kind: DocumentKind): PreparedDocument {
  const content = bytes.toString("utf8").replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const unstorable = unstorableReason(content);
  if (unstorable) throw new WeftError("INVALID_DOCUMENT_ENCODING", `Document "${title}" ${unstorable}.`);
  if (content.length > MAX_DOCUMENT_CHARS) {
    throw new WeftError("DOCUMENT_TOO_LARGE", `Document "${title}" has ${content.length} characters; the limit is ${MAX_DOCUMENT_CHARS}.`);
  }
  if (content.trim() === "") throw new WeftError("EMPTY_DOCUMENT", `Document "${title}" has no text to index.`);
  return { title, content, mimeType: DOCUMENT_MIME_TYPES[kind], contentHash: contentHash(content) };
}

function decode(title: string, raw: RawDocument): Buffer {
  if (raw.encoding !== "BASE64") return Buffer.from(raw.content, "utf8");
  if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(raw.content)) {
    throw new WeftError("INVALID_DOCUMENT_ENCODING", `Document "${title}" is marked BASE64 but is not valid base64.`);
  }
  return Buffer.from(raw.content, "base64");
}
