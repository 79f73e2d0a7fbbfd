export { detectDocumentKind, DOCUMENT_MIME_TYPES, isMarkdownKind, kindOfMimeType, needsExtraction, utf8 } from "./document-type.js";
export type { DocumentKind } from "./document-type.js";
export { DOCUMENT_LIMITS, extractDocument, htmlToMarkdown } from "./extract-document.js";
export type { ExtractedDocument, ExtractOptions } from "./extract-document.js";
