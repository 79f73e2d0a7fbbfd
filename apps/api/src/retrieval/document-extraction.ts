import { Worker } from "node:worker_threads";
import { ConcurrencyLimiter, WeftError } from "@weft/engine";
import { DOCUMENT_LIMITS, type DocumentKind, type ExtractedDocument } from "@weft/providers/documents";
import { workerEntry } from "../worker-entry.js";

/**
 * Text extraction (PDF, HTML, DOCX) on a worker thread: CPU-heavy work on untrusted files never runs on
 * the API's thread, and each file is bounded — a heap of EXTRACTION_LIMITS.heapMb (a file that needs more
 * is DOCUMENT_TOO_LARGE), EXTRACTION_LIMITS.timeMs of wall time (DOCUMENT_EXTRACTION_TIMEOUT), the pages
 * and characters of DOCUMENT_LIMITS — and at most EXTRACTION_LIMITS.concurrent files at once per process.
 */

export const EXTRACTION_LIMITS = {
  /** A decoded file's bytes at most (DOCUMENT_TOO_LARGE beyond). */
  maxFileBytes: 32 * 1024 * 1024,
  heapMb: 512,
  timeMs: 120_000,
  concurrent: 2,
} as const;

/** What the worker receives. */
export interface ExtractRequest {
  bytes: Uint8Array;
  kind: DocumentKind;
  maxPages: number;
  maxChars: number;
}

/** What the worker posts: progress per page, then the text or the failure. */
export type ExtractMessage =
  | { type: "page"; done: number; total: number }
  | { type: "done"; document: ExtractedDocument }
  | { type: "failed"; code: string; message: string };

const limiter = new ConcurrencyLimiter(EXTRACTION_LIMITS.concurrent);

export interface ExtractionOptions {
  onPage?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export function extractOffThread(bytes: Uint8Array, kind: DocumentKind, options: ExtractionOptions = {}): Promise<ExtractedDocument> {
  if (bytes.byteLength > EXTRACTION_LIMITS.maxFileBytes) {
    return Promise.reject(new WeftError("DOCUMENT_TOO_LARGE", `the file has ${bytes.byteLength} bytes; the limit is ${EXTRACTION_LIMITS.maxFileBytes}`));
  }
  return withSlot(options.signal, () => runWorker({ bytes, kind, maxPages: DOCUMENT_LIMITS.maxPages, maxChars: DOCUMENT_LIMITS.maxChars }, options));
}

async function withSlot<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
  await limiter.acquire(signal ?? new AbortController().signal);
  try {
    return await work();
  } finally {
    limiter.release();
  }
}

function runWorker(request: ExtractRequest, options: ExtractionOptions): Promise<ExtractedDocument> {
  const entry = workerEntry("document-extract-worker", import.meta.url);
  const worker = new Worker(entry.url, {
    workerData: request,
    execArgv: entry.execArgv,
    resourceLimits: { maxOldGenerationSizeMb: EXTRACTION_LIMITS.heapMb, maxYoungGenerationSizeMb: 64 },
  });
  return new Promise<ExtractedDocument>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(
      () => finish(() => reject(new WeftError("DOCUMENT_EXTRACTION_TIMEOUT", `reading the file took longer than ${EXTRACTION_LIMITS.timeMs / 1000} s`))),
      EXTRACTION_LIMITS.timeMs,
    );
    const onAbort = () => finish(() => reject(options.signal?.reason instanceof Error ? options.signal.reason : new DOMException("aborted", "AbortError")));
    options.signal?.addEventListener("abort", onAbort, { once: true });
    worker.on("message", (message: ExtractMessage) => {
      if (message.type === "page") options.onPage?.(message.done, message.total);
      else if (message.type === "done") finish(() => resolve(message.document));
      else finish(() => reject(new WeftError(message.code, message.message)));
    });
    worker.on("error", (error: Error & { code?: string }) => {
      const outOfMemory = error.code === "ERR_WORKER_OUT_OF_MEMORY";
      finish(() => reject(outOfMemory ? new WeftError("DOCUMENT_TOO_LARGE", `reading the file needed more than ${EXTRACTION_LIMITS.heapMb} MB`) : error));
    });
    worker.on("exit", (code) => finish(() => reject(new Error(`the document extraction thread exited (code ${code}) before it finished`))));
  });
}
