import { WeftError } from "@weft/engine";
import { resolveChunkingOptions, type ChunkingOptions } from "@weft/providers";
import { prepareDocument, type PreparedDocument, type RawDocument } from "../../retrieval/document-content.js";
import { MAX_DOCUMENTS_PER_REQUEST } from "../../retrieval/ingestion.service.js";
import { userError, type UserError } from "../../errors/user-error.type.js";
import type { Outcome } from "../../errors/outcome.js";

/** Checks that run before anything is stored or indexed, so refused input changes nothing. */

export const KNOWLEDGE_BASE_LIMITS = {
  maxNameLength: 64,
  maxDescriptionLength: 2_000,
  maxQueryLength: 10_000,
  maxTopK: 50,
  maxDocumentsPerRequest: MAX_DOCUMENTS_PER_REQUEST,
} as const;

/** Names are referenced from workflows and command lines, so they stay simple. */
export const KNOWLEDGE_BASE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export function checkKnowledgeBaseName(name: string, path: string[]): UserError[] {
  if (name.length > KNOWLEDGE_BASE_LIMITS.maxNameLength) {
    return [userError("LIMIT_EXCEEDED", `name is longer than ${KNOWLEDGE_BASE_LIMITS.maxNameLength} characters`, { path })];
  }
  if (!KNOWLEDGE_BASE_NAME_PATTERN.test(name)) {
    return [
      userError("VALIDATION_FAILED", "name must start with a letter or digit and use only letters, digits, '_', '-' and '.'", { path }),
    ];
  }
  return [];
}


export function checkChunking(size: number | null | undefined, overlap: number | null | undefined): Outcome<ChunkingOptions> {
  try {
    return { ok: true, value: resolveChunkingOptions({ size: size ?? undefined, overlap: overlap ?? undefined }) };
  } catch (error) {
    if (!(error instanceof WeftError)) throw error;
    const field = error.message.toLowerCase().includes("overlap") ? "chunkOverlap" : "chunkSize";
    return { ok: false, errors: [userError("VALIDATION_FAILED", error.message, { path: ["input", field] })] };
  }
}


/**
 * Decodes and checks every document of an addDocuments request. Any problem refuses the whole request
 * (nothing is stored); duplicates are not a problem here — they are reported per document later.
 */
export async function prepareDocuments(documents: readonly RawDocument[]): Promise<Outcome<PreparedDocument[]>> {
  if (documents.length === 0) {
    return { ok: false, errors: [userError("VALIDATION_FAILED", "give at least one document", { path: ["documents"] })] };
  }
  if (documents.length > KNOWLEDGE_BASE_LIMITS.maxDocumentsPerRequest) {
    const message = `at most ${KNOWLEDGE_BASE_LIMITS.maxDocumentsPerRequest} documents can be added at once, got ${documents.length}`;
    return { ok: false, errors: [userError("LIMIT_EXCEEDED", message, { path: ["documents"] })] };
  }
  const prepared: PreparedDocument[] = [];
  const errors: UserError[] = [];
  for (const [index, document] of documents.entries()) {
    try {
      prepared.push(await prepareDocument(document));
    } catch (error) {
      if (!(error instanceof WeftError)) throw error;
      const code = error.code === "DOCUMENT_TOO_LARGE" ? "LIMIT_EXCEEDED" : error.code === "DOCUMENT_TYPE_UNSUPPORTED" ? error.code : "VALIDATION_FAILED";
      errors.push(userError(code, `${error.message} (${error.code})`, { path: ["documents", String(index)] }));
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: prepared };
}

export interface SearchArgs {
  query: string;
  topK?: number | null;
  alpha?: number | null;
}

export function checkSearch(args: SearchArgs): UserError[] {
  const errors: UserError[] = [];
  if (args.query.trim() === "") errors.push(userError("VALIDATION_FAILED", "query must not be empty", { path: ["input", "query"] }));
  if (args.query.length > KNOWLEDGE_BASE_LIMITS.maxQueryLength) {
    errors.push(userError("LIMIT_EXCEEDED", `query is longer than ${KNOWLEDGE_BASE_LIMITS.maxQueryLength} characters`, { path: ["input", "query"] }));
  }
  const topK = args.topK;
  if (topK !== null && topK !== undefined && (!Number.isInteger(topK) || topK < 1 || topK > KNOWLEDGE_BASE_LIMITS.maxTopK)) {
    errors.push(userError("VALIDATION_FAILED", `topK must be between 1 and ${KNOWLEDGE_BASE_LIMITS.maxTopK}`, { path: ["input", "topK"] }));
  }
  const alpha = args.alpha;
  if (alpha !== null && alpha !== undefined && !(alpha >= 0 && alpha <= 1)) {
    errors.push(userError("VALIDATION_FAILED", "alpha must be between 0 and 1", { path: ["input", "alpha"] }));
  }
  return errors;
}
