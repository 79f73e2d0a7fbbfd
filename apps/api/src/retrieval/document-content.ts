import { createHash } from "node:crypto";
import { hasVisibleCharacter, WeftError } from "@weft/engine";
import { unstorableReason } from "../modules/common/storable-text.js";

/**
 * Turning what a client sends (text, or a file's bytes in base64) into a document we can index:
 * supported types, UTF-8 decoding, size limits, and the content hash used to detect duplicates.
 */

export const MAX_DOCUMENT_CHARS = 2_000_000;
export const MAX_TITLE_CHARS = 300;
export const SUPPORTED_MIME_TYPES = ["text/plain", "text/markdown"] as const;
export type DocumentMimeType = (typeof SUPPORTED_MIME_TYPES)[number];

export interface RawDocument {
  title: string;
  content: string;
  /** "text/plain" or "text/markdown"; guessed from the title's extension when absent. */
  mimeType?: string | null;
  /** "TEXT" (default) or "BASE64" for a file's bytes, which must be UTF-8 text. */
  encoding?: "TEXT" | "BASE64" | null;
}

export interface PreparedDocument {
  title: string;
  content: string;
  mimeType: DocumentMimeType;
  contentHash: string;
}

const MIME_ALIASES: Record<string, DocumentMimeType> = {
  "text/plain": "text/plain",
  "text/markdown": "text/markdown",
  "text/x-markdown": "text/markdown",
};

function resolveMimeType(title: string, mimeType: string | null | undefined): DocumentMimeType {
  if (mimeType === undefined || mimeType === null || mimeType.trim() === "") {
    return /\.(md|markdown|mdx)$/i.test(title) ? "text/markdown" : "text/plain";
  }
  const resolved = MIME_ALIASES[mimeType.split(";")[0]?.trim().toLowerCase() ?? ""];
  if (!resolved) {
    throw new WeftError("UNSUPPORTED_DOCUMENT_TYPE", `Document "${title}" has type ${mimeType}; supported types are ${SUPPORTED_MIME_TYPES.join(" and ")}.`);
  }
  return resolved;
}

function decode(title: string, content: string, encoding: RawDocument["encoding"]): string {
  if (encoding !== "BASE64") return content;
  if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(content)) {
    throw new WeftError("INVALID_DOCUMENT_ENCODING", `Document "${title}" is marked BASE64 but is not valid base64.`);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(content, "base64")).replace(/^\uFEFF/, "");
  } catch {
    throw new WeftError("INVALID_DOCUMENT_ENCODING", `Document "${title}" is not UTF-8 text; only plain text and Markdown files can be indexed.`);
  }
  // NUL bytes are valid UTF-8 but mark a binary file, and the database cannot store them.
  const unstorable = unstorableReason(text);
  if (unstorable) throw new WeftError("INVALID_DOCUMENT_ENCODING", `Document "${title}" ${unstorable}; only plain text and Markdown files can be indexed.`);
  return text;
}

/** sha256 of the text with line endings unified, so the same file saved on Windows is still a duplicate. */
export function contentHash(content: string): string {
  return createHash("sha256").update(content.replace(/\r\n?/g, "\n"), "utf8").digest("hex");
}

export function prepareDocument(raw: RawDocument): PreparedDocument {
  const title = raw.title.trim();
  if (!hasVisibleCharacter(title) || title.length > MAX_TITLE_CHARS) {
    throw new WeftError("INVALID_DOCUMENT", `A document title must be 1 to ${MAX_TITLE_CHARS} characters, at least one of them visible.`);
  }
  const mimeType = resolveMimeType(title, raw.mimeType);
  const content = decode(title, raw.content, raw.encoding ?? "TEXT").replace(/\r\n?/g, "\n");
  if (content.length > MAX_DOCUMENT_CHARS) {
    throw new WeftError("DOCUMENT_TOO_LARGE", `Document "${title}" has ${content.length} characters; the limit is ${MAX_DOCUMENT_CHARS}.`);
  }
  if (content.trim() === "") throw new WeftError("EMPTY_DOCUMENT", `Document "${title}" has no text to index.`);
  return { title, content, mimeType, contentHash: contentHash(content) };
}
