/**
 * Limits on a workflow document (`weft.workflow/v1` and `/v2`). Documents arrive from untrusted sources
 * (import, the command line, the API), so everything that can grow is bounded. Documented in
 * docs/workflow-format.md.
 */
export const WORKFLOW_DOCUMENT_LIMITS: WorkflowDocumentLimits = Object.freeze({
  /** UTF-8 bytes of the whole JSON text. */
  maxBytes: 8 * 1024 * 1024,
  /** Nodes and edges, counted over the whole document: map and subgraph bodies included. */
  maxNodes: 10_000,
  maxEdges: 40_000,
  /** Node ids, edge ids, provider and model ids, params keys, knowledge-base names. */
  maxIdLength: 128,
  maxNameLength: 200,
  /** Input/output node content. */
  maxContentLength: 200_000,
  /** Workflow prompts, per-node prompt overrides, templates and the output format. */
  maxPromptLength: 50_000,
  /** Nesting depth of a node's params (an object directly under params is depth 1). */
  maxParamsDepth: 4,
  /** Values counted over the whole params tree of one node (object keys and array items). */
  maxParamsEntries: 64,
  /** Any string inside params. */
  maxParamsStringLength: 10_000,
  /** Issues reported for one document before the parser stops listing them. */
  maxIssues: 100,
  /** A CEL expression (a switch case, a map's items). */
  maxExpressionLength: 4_000,
  /** Cases of a switch, labels of a classify node. */
  maxPorts: 64,
  /** Declared loops and state channels, each. */
  maxLoops: 100,
  maxStateChannels: 64,
  /** Map and subgraph bodies nested inside each other (a body inside a body is depth 2). */
  maxBodyDepth: 4,
  /** An `llm` node's JSON Schema: nesting depth and values counted through it. */
  maxSchemaDepth: 16,
  maxSchemaEntries: 2_000,
});

export interface WorkflowDocumentLimits {
  readonly maxBytes: number;
  readonly maxNodes: number;
  readonly maxEdges: number;
  readonly maxIdLength: number;
  readonly maxNameLength: number;
  readonly maxContentLength: number;
  readonly maxPromptLength: number;
  readonly maxParamsDepth: number;
  readonly maxParamsEntries: number;
  readonly maxParamsStringLength: number;
  readonly maxIssues: number;
  readonly maxExpressionLength: number;
  readonly maxPorts: number;
  readonly maxLoops: number;
  readonly maxStateChannels: number;
  readonly maxBodyDepth: number;
  readonly maxSchemaDepth: number;
  readonly maxSchemaEntries: number;
}
