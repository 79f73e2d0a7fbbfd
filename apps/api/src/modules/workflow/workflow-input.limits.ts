import { WORKFLOW_DOCUMENT_LIMITS } from "@weft/engine";

/**
 * Limits on what the workflow API accepts. Text limits follow the `weft.workflow/v1` document limits so
 * anything the API stores can be exported and imported again; the graph size is tighter than a
 * document's because the API keeps a whole workflow in memory for every edit check.
 */
export const WORKFLOW_INPUT_LIMITS = {
  maxNameLength: WORKFLOW_DOCUMENT_LIMITS.maxNameLength,
  maxDescriptionLength: 10_000,
  maxIdLength: WORKFLOW_DOCUMENT_LIMITS.maxIdLength,
  maxContentLength: WORKFLOW_DOCUMENT_LIMITS.maxContentLength,
  maxPromptLength: WORKFLOW_DOCUMENT_LIMITS.maxPromptLength,
  maxNodes: 2_000,
  maxEdges: 8_000,
  /** Entries in one moveNodes call. */
  maxMovedNodes: 2_000,
  /** |x| and |y| of a node position on the canvas. */
  maxCoordinate: 10_000_000,
  /** UTF-8 bytes of an imported document. */
  maxDocumentBytes: WORKFLOW_DOCUMENT_LIMITS.maxBytes,
} as const;
