import { WeftError } from "../model/errors.js";

/** Why a workflow document was refused. Stable: clients switch on these. */
export const DOCUMENT_ISSUE_CODES = [
  "DOCUMENT_TOO_LARGE",
  "DOCUMENT_NOT_JSON",
  "UNSUPPORTED_FORMAT",
  "FIELD_INVALID",
  "FIELD_UNKNOWN",
  "LIMIT_EXCEEDED",
  "UNKNOWN_NODE_TYPE",
  "DUPLICATE_NODE_ID",
  "DUPLICATE_EDGE_ID",
  "EDGE_NODE_MISSING",
  "PROMPT_MISSING",
  "DUPLICATE_LOOP_ID",
] as const;
export type DocumentIssueCode = (typeof DOCUMENT_ISSUE_CODES)[number];

/** One problem, located by a path such as `nodes[3].type` (empty for the document as a whole). */
export interface DocumentIssue {
  code: DocumentIssueCode;
  path: string;
  message: string;
}

/** Thrown by `readWorkflowDocument`; carries every issue found, the first one in the message. */
export class WorkflowDocumentError extends WeftError {
  readonly issues: DocumentIssue[];

  constructor(issues: DocumentIssue[]) {
    const first = issues[0];
    const where = first?.path ? `${first.path}: ` : "";
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
    super("WORKFLOW_DOCUMENT_INVALID", `invalid workflow document: ${where}${first?.message ?? "unknown problem"}${more}`, {
      details: { issues },
    });
    this.name = "WorkflowDocumentError";
    this.issues = issues;
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `["nodes", 3, "type"]` → `nodes[3].type`; keys that are not identifiers are quoted. */
export function formatPath(segments: readonly PropertyKey[]): string {
  let path = "";
  for (const segment of segments) {
    if (typeof segment === "number") path += `[${segment}]`;
    else if (typeof segment === "string" && IDENTIFIER.test(segment)) path += path === "" ? segment : `.${segment}`;
    else path += `[${JSON.stringify(String(segment))}]`;
  }
  return path;
}
