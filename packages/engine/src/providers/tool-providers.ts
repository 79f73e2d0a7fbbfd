import type { HttpClient } from "./http-client.js";
import type { KnowledgeBaseSearch } from "./knowledge-base-search.js";
import type { McpTools } from "./mcp-tools.js";
import type { SemanticCache, WorkflowRevision } from "./semantic-cache.js";
import type { ThreadHistory } from "./thread-history.js";
import type { WebSearchProviders } from "./web-search.js";
import type { WorkflowTools } from "./workflow-tools.js";

/**
 * The I/O the tool nodes of SPEC-V2 §6 need, handed to a run by whoever runs it (the API, the command
 * line, tests). Each is optional: a node whose tool is missing fails with a clear code, an `llm` node's
 * `cache` is skipped with a warning, a `history` node without a thread reads an empty history with a warning.
 */
export interface ToolProviders {
  /** `retrieve` and `expand`: knowledge bases by name. */
  knowledgeBases?: KnowledgeBaseSearch;
  /** `web_search`: providers by id ("offline", "tavily"). */
  webSearch?: WebSearchProviders;
  /** `cache_lookup`, `cache_store`, `cache` on `llm`. */
  cache?: SemanticCache;
  /** `history`: the thread the run belongs to. */
  thread?: ThreadHistory;
  /**
   * The workflow version the run executes: the default cache scope (`workflow:<id>:v<version>`, or
   * `workflow:<id>:draft@<edit version>` for a run of the draft).
   */
  workflowVersion?: WorkflowRevision;
  /** `workflow` tools of agents and tool nodes: published workflows, run as child runs. */
  workflows?: WorkflowTools;
  /** `mcp` tools: the MCP servers the operator configured. */
  mcp?: McpTools;
  /** The `http` node and `http` tools: the host's client, with its destination guard and limits. */
  http?: HttpClient;
}
