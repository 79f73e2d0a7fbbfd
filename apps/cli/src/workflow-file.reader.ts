import { readFile, stat } from "node:fs/promises";
import { builtInRegistry, parseWorkflowDocument, WORKFLOW_DOCUMENT_LIMITS, type DocumentIssue, type Workflow } from "@weft/engine";

/** Why a file could not become a workflow; printed as JSON and mapped to exit code 2. */
export interface FileError {
  code: string;
  message: string;
  path?: string;
  issues?: DocumentIssue[];
}

export type ReadWorkflowFileResult = { ok: true; workflow: Workflow } | { ok: false; error: FileError };

/** Reads and parses a workflow file, refusing an oversized file before reading it into memory. */
export async function readWorkflowFile(file: string): Promise<ReadWorkflowFileResult> {
  let text: string;
  try {
    const info = await stat(file);
    if (!info.isFile()) return unreadable(file, "it is not a regular file");
    if (info.size > WORKFLOW_DOCUMENT_LIMITS.maxBytes) {
      const message = `the document is larger than ${WORKFLOW_DOCUMENT_LIMITS.maxBytes} bytes (${info.size} bytes)`;
      return { ok: false, error: { code: "DOCUMENT_TOO_LARGE", message } };
    }
    text = await readFile(file, "utf8");
  } catch (error) {
    return unreadable(file, (error as NodeJS.ErrnoException).code ?? String(error));
  }
  const result = parseWorkflowDocument(text, { registry: builtInRegistry });
  if (result.ok) return result;
  const first = result.issues[0];
  return {
    ok: false,
    error: {
      code: first?.code ?? "FIELD_INVALID",
      message: first?.path ? `${first.path}: ${first.message}` : (first?.message ?? "invalid document"),
      ...(first?.path ? { path: first.path } : {}),
      issues: result.issues,
    },
  };
}

function unreadable(file: string, reason: string): ReadWorkflowFileResult {
  return { ok: false, error: { code: "FILE_UNREADABLE", message: `cannot read ${file}: ${reason}` } };
}
