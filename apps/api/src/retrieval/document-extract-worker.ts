import { parentPort, workerData } from "node:worker_threads";
import { WeftError } from "@weft/engine";
import { extractDocument } from "@weft/providers/documents";
import type { ExtractMessage, ExtractRequest } from "./document-extraction.js";

/** Extracts one file's text off the API's thread (document-extraction.ts starts it with its limits). */
const request = workerData as ExtractRequest;
const post = (message: ExtractMessage) => parentPort?.postMessage(message);
try {
  const document = await extractDocument(request.bytes, request.kind, {
    maxPages: request.maxPages,
    maxChars: request.maxChars,
    onPage: (done, total) => post({ type: "page", done, total }),
  });
  post({ type: "done", document });
} catch (error) {
  post(error instanceof WeftError ? { type: "failed", code: error.code, message: error.message } : { type: "failed", code: "DOCUMENT_INVALID", message: error instanceof Error ? error.message : String(error) });
}
