import { WeftError } from "@weft/engine";
import { detectDocumentKind, needsExtraction, utf8 } from "@weft/providers/documents";
import { extractOffThread } from "../../retrieval/document-extraction.js";
import { userError, type UserError } from "../../errors/user-error.type.js";
import { failure, success, type Outcome } from "../../errors/outcome.js";
import type { RunWorkflowInput } from "./run.input.js";

/** A run request whose input contents are all text (files read). */
export type ResolvedRunInput = Omit<RunWorkflowInput, "inputs"> & { inputs?: { nodeId: string; content: string }[] | null };

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/**
 * Input nodes' contents given as files (`inputs: [{nodeId, file: {name, base64}}]`, SPEC-V3 §5) become
 * their text: the kind is read from the bytes, and PDF, DOCX and HTML are extracted on a worker thread
 * (document-extraction.ts) before the run is stored. Each entry gives `content` or `file`, not both.
 * Refusals name the entry: DOCUMENT_TYPE_UNSUPPORTED, DOCUMENT_NO_TEXT, DOCUMENT_TOO_LARGE, …
 */
export async function resolveFileInputs(input: RunWorkflowInput | null | undefined): Promise<Outcome<ResolvedRunInput | null>> {
  if (!input?.inputs) return success(input ? { ...input, inputs: null } : null);
  const errors: UserError[] = [];
  const inputs: { nodeId: string; content: string }[] = [];
  for (const [index, entry] of input.inputs.entries()) {
    const path = ["input", "inputs", String(index)];
    const given = (entry.content !== null && entry.content !== undefined ? 1 : 0) + (entry.file ? 1 : 0);
    if (given !== 1) {
      errors.push(userError("VALIDATION_FAILED", "give either content or file", { path, nodeIds: [entry.nodeId] }));
      continue;
    }
    if (!entry.file) {
      inputs.push({ nodeId: entry.nodeId, content: entry.content! });
      continue;
    }
    try {
      inputs.push({ nodeId: entry.nodeId, content: await fileText(entry.file.name, entry.file.base64) });
    } catch (error) {
      if (!(error instanceof WeftError)) throw error;
      errors.push(userError(error.code, `${entry.file.name.slice(0, 80)}: ${error.message}`, { path: [...path, "file"], nodeIds: [entry.nodeId] }));
    }
  }
  return errors.length > 0 ? failure(...errors) : success({ ...input, inputs });
}

async function fileText(name: string, base64: string): Promise<string> {
  if (!BASE64.test(base64)) throw new WeftError("INVALID_DOCUMENT_ENCODING", "the file is not valid base64");
  const bytes = Buffer.from(base64, "base64");
  const kind = await detectDocumentKind(bytes, { name });
  if (needsExtraction(kind)) return (await extractOffThread(bytes, kind)).text;
  const text = utf8(bytes);
  if (text === null || text.trim() === "") throw new WeftError("DOCUMENT_NO_TEXT", "the file has no text");
  return text.replace(/\r\n?/g, "\n");
}
