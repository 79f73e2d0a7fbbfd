/**
 * The engine's public surface, chosen name by name: what the API, the admin UI, the command line, the
 * providers and the benchmarks use. Everything else under src/ is internal and may change freely.
 */

// The workflow model and the errors every caller handles.
export { DEFAULT_PORT, LOOP_MAX_BOUND, SEARCH_INTENSITIES, SEED_NODE_TYPES, STATE_REDUCERS, STATE_SCOPES } from "./model/workflow.js";
export type {
  LoopDeclaration,
  NodePosition,
  PromptSet,
  SearchIntensity,
  StateChannel,
  StateReducer,
  StateScope,
  Workflow,
  WorkflowEdge,
  WorkflowGraph,
  WorkflowLimits,
  WorkflowNode,
  WorkflowSettings,
} from "./model/workflow.js";
export { isJsonObject, jsonText } from "./model/json-value.js";
export type { JsonObject, JsonValue } from "./model/json-value.js";
export { createNewWorkflow } from "./model/defaults.js";
export { hasVisibleCharacter, VISIBLE_NAME } from "./model/visible-text.js";
export { SECRET_NAME, SECRET_REFERENCE, secretReferencesIn } from "./model/secret-reference.js";
export { isAbortError, ProviderError, WeftError } from "./model/errors.js";
export type { ErrorAudience, ProviderErrorCode } from "./model/errors.js";

// Node types: the registry the checker, the scheduler and the editor read, always passed to them
// (builtInRegistry: every built-in type, for v1 and v2 documents alike), and their descriptions.
export { BUILT_IN_NODE_TYPES, builtInRegistry, createBuiltInRegistry } from "./node-types/built-in-node-types.js";
export { describeNodeType, describeNodeTypes } from "./registry/node-type-catalogue.js";
export type { NodeTypeDescription } from "./registry/node-type-catalogue.js";
export { CHANNEL_NAME } from "./registry/node-config.schema.js";
export { NodeTypeRegistry } from "./registry/node-type-registry.js";
export type {
  BodyRunRequest,
  BodyRunResult,
  BodySpec,
  Bounds,
  CountRule,
  ExecutionSettings,
  InvocationScope,
  NodeExecutionContext,
  NodeExecutionResult,
  NodeExecutor,
  NodeExpression,
  NodeTypeDefinition,
  RouterSpec,
} from "./registry/node-type-definition.js";

// Connection rules: whole graphs and single edits, the same answer in the browser and on the server.
export { RULE_CODES } from "./model/violation.js";
export type { RuleCode, Violation } from "./model/violation.js";
export { validateWorkflow } from "./rules/validate-workflow.js";
export type { ValidateWorkflowOptions } from "./rules/validate-workflow.js";
export { canConnect, checkAddEdge, checkAddNode, checkEdit, checkRemoveEdge, checkRemoveNode } from "./rules/edit-rules.js";
export type { EditCheckOptions, WorkflowEdit } from "./rules/edit-rules.js";
export { checkNodeConfig, configDocument, readNodeDocument } from "./document/node-config.check.js";
export type { NodeCheckOptions } from "./document/node-config.check.js";
export { checkWorkflowSettings } from "./document/workflow-settings.check.js";
export type { WorkflowSettingsInput } from "./document/workflow-settings.check.js";
export { availableModelsOf } from "./rules/model-rules.js";
export type { AvailableModel } from "./rules/model-rules.js";

// Workflow documents (weft.workflow/v1 and v2): import, export, the command line.
export { parseWorkflowDocument, parseWorkflowValue, WORKFLOW_FORMATS } from "./document/workflow-document.parser.js";
export type { ParseWorkflowOptions, ParseWorkflowResult, WorkflowFormat } from "./document/workflow-document.parser.js";
export { DEFAULT_MAX_INVOCATIONS, MAX_COST_USD_CEILING, MAX_INVOCATIONS_CEILING, PIPELINE_FORMAT } from "./document/pipeline-document.schema.js";
export { serializeWorkflow, stringifyWorkflow } from "./document/workflow-document.serializer.js";
export { WORKFLOW_FORMAT } from "./document/workflow-document.schema.js";
export type { WorkflowDocument } from "./document/workflow-document.schema.js";
export { WORKFLOW_DOCUMENT_LIMITS } from "./model/workflow-document.limits.js";
export type { WorkflowDocumentLimits } from "./model/workflow-document.limits.js";
export type { DocumentIssue, DocumentIssueCode } from "./document/document-issue.js";

// Runs: prepare once (pure), then execute the prepared run.
export { PREPARED_RUN_FORMAT, prepareRun, prepareRunUnchecked } from "./execute/prepare-run.js";
export type { PreparedRun, PrepareRunResult, RunPolicy, RunRequestCode, RunViolation } from "./execute/prepare-run.js";
export { parsePreparedRun } from "./execute/prepared-run.schema.js";
export { DEFAULT_INTENSITY, DEFAULT_TOP_K, nodeExecutionSettings } from "./execute/run-settings.js";
export type { RunRequest, RunSettings, TopKByIntensity } from "./execute/run-settings.js";
export { runWorkflow } from "./execute/run-workflow.js";
export { eventKey, resumeFromEvents } from "./execute/run-resume.js";
export type { FinishedInvocation, ResumeRecord, RunResume, StoredEvent, WaitingInvocation } from "./execute/run-resume.js";

// People in the loop (SPEC-V3 §2): the answers a run's tasks receive, and the check an answer passes first.
export { HumanTaskAnswers } from "./execute/human-task-answers.js";
export type { HumanAction, HumanTaskAnswer, HumanTaskRequest } from "./model/human-task.js";
export { checkHumanAnswer } from "./node-types/human/human-answer.check.js";
export type { AnsweredTask, HumanAnswerIssue } from "./node-types/human/human-answer.check.js";
export type { ExecutionOptions, RunWorkflowInput } from "./execute/run-workflow.js";
export type { RunOutcome, RunStatus } from "./execute/workflow-runner.js";
export { ConcurrencyLimiter } from "./execute/concurrency-limiter.js";
export type { Slots } from "./execute/concurrency-limiter.js";
export { DEFAULT_RETRY_OPTIONS, withRetries } from "./execute/retry-policy.js";
export type { RetryOptions } from "./execute/retry-policy.js";
export type { RunEventHandler } from "./execute/run-event-sink.js";

// Users' regular expressions: RE2 syntax, linear time (guardrails, params.match, JSON Schema, CEL, scorers).
export { compileUserPattern, patternProblem } from "./patterns/user-pattern.js";
export type { PatternOptions, UserPattern } from "./patterns/user-pattern.js";

// Evaluations (SPEC-V3 §4): dataset rows, scorers, summaries and comparisons of experiments.
export { checkDatasetRow, checkRowParts, DATASET_LIMITS, MAX_REPORTED_ISSUES, readJsonlRows } from "./evaluation/dataset-row.js";
export type { DatasetIssue, DatasetIssueCode, DatasetLineIssue, DatasetRowCheck, DatasetRowInput, DatasetRowsRead, DatasetRowValue } from "./evaluation/dataset-row.js";
export { readScorers, SCORER_ID, SCORER_LIMITS, scorerThreshold } from "./evaluation/scorer-spec.js";
export type { ScorerIssue, ScorerIssueCode, ScorerSpec, ScorersRead } from "./evaluation/scorer-spec.js";
export { SCORER_TYPES } from "./evaluation/scorer-types.js";
export type { ScorerType } from "./evaluation/scorer-types.js";
export { MAX_REASON_LENGTH, scoreCase } from "./evaluation/score-case.js";
export type { CaseScores } from "./evaluation/score-case.js";
export type { Score, ScoringCase, ScoringContext } from "./evaluation/scorers/scorer.js";
export { JUDGE_REPLY_SCHEMA, judgePrompt } from "./evaluation/scorers/judge.scorer.js";
export { percentile, summarizeResults } from "./evaluation/experiment-summary.js";
export type { ExperimentSummary, ResultFigures, ScorerSummary } from "./evaluation/experiment-summary.js";
export { compareRowScores } from "./evaluation/experiment-comparison.js";
export type { ExperimentComparisonRows, RowComparison, RowScores } from "./evaluation/experiment-comparison.js";
export { canonicalJson } from "./evaluation/output-reading.js";

// Limits every value of a run stays within (SPEC-V3 §1): the host passes them in its RunPolicy.
export { DEFAULT_RUN_LIMITS, resolveRunLimits } from "./limits/run-limits.js";
export type { LimitCode, RunLimits } from "./limits/run-limits.js";
export { jsonStringBytes, measureJson } from "./limits/json-measure.js";
export type { JsonMeasure, MeasureLimits } from "./limits/json-measure.js";
export { jsonTextDepth, parseJsonWithin } from "./limits/json-text-depth.js";

// Run events, as streamed and stored.
export { AGENT_RUN_EVENT_TYPES, HUMAN_RUN_EVENT_TYPES, PIPELINE_RUN_EVENT_TYPES, RUN_EVENT_TYPES, TERMINAL_EVENT_TYPES } from "./events/run-event.js";
export type { AgentStepCall, EventError, NodeRunDetails, RunEvent, RunEventOf, RunEventType, SkipReason } from "./events/run-event.js";

// Building blocks of node executors, for custom node types and for comparisons in the benchmarks.
export { parseResult, parseTextContent } from "./result-parser/result-parser.js";
export type { ParsedResult } from "./result-parser/result-parser.js";
export { renderPrompt } from "./template/prompt-template.js";
export { renderTemplate } from "./template/node-template.js";
export type { RenderedTemplate, TemplateValues } from "./template/node-template.js";
export { compileExpression } from "./expression/cel-expression.js";
export { compileTriggerExpression, evaluateTriggerExpression } from "./expression/trigger-expression.js";
export type { CompiledTriggerExpression, TriggerCompileResult, TriggerVariables } from "./expression/trigger-expression.js";
export type { CompileResult, ExpressionScope, ExpressionVariables } from "./expression/cel-expression.js";
export { schemaErrors, schemaMismatch, type SchemaError } from "./schema/json-schema.check.js";

// Deterministic workloads: the seeded generator the tests and benchmarks of every package draw from.
export { seededRandom, shuffle } from "./random/seeded-random.js";

// Providers: the interfaces the API's and the providers package's adapters implement, and the offline test models.
export type {
  LlmCallOrigin,
  LlmFinishReason,
  LlmMessage,
  LlmModelInfo,
  LlmProvider,
  LlmProviders,
  LlmReply,
  LlmRequest,
  LlmStreamChunk,
  LlmToolCall,
  LlmToolDefinition,
  TokenUsage,
} from "./providers/llm-provider.js";
export { parseToolArguments, requestMessages, TOOL_NAME_PATTERN, toolDefinitionProblem } from "./providers/llm-messages.js";
export type { ToolArguments } from "./providers/llm-messages.js";
export { DEFAULT_COMPLETION_TOKENS_ESTIMATE, estimateCallCost, maxCompletionTokens, modelPrice, UNMETERED_COST, usageCost } from "./providers/model-cost.js";
export type { CallerCost, CostReservation, ModelPrice, RunCost } from "./providers/model-cost.js";
export { OFFLINE_PROVIDER_ID, OfflineLlmProvider } from "./providers/offline-llm-provider.js";
export type {
  ChunkAnchor,
  ChunkSource,
  Embedder,
  MultiVectorSearchQuery,
  PositionedChunk,
  RetrievalResult,
  Retriever,
  ScoredChunk,
  StoredChunk,
  VectorSearchQuery,
  VectorStore,
} from "./providers/retrieval.js";
export { CHUNK_FILTER_LIMITS, chunkFilterSchema, chunkMatchesFilter, conditionValues, isEmptyFilter, isNumberRange } from "./providers/chunk-filter.js";
export type { ChunkFilter, FieldCondition, FilterScalar, NumberRange } from "./providers/chunk-filter.js";
export { mergeSearchResults, neighbourLimit, neighbourRanges, orderNeighbours } from "./providers/search-merge.js";
export type { NeighbourRange } from "./providers/search-merge.js";
export type { KnowledgeBaseQuery, KnowledgeBaseSearch, NeighbourResult } from "./providers/knowledge-base-search.js";
export { hostAllowedByDomains, hostMatchesDomain, WEB_SEARCH_LIMITS } from "./providers/web-search.js";
export type {
  WebSearchDepth,
  WebSearchProvider,
  WebSearchProviders,
  WebSearchRequest,
  WebSearchResponse,
  WebSearchResult,
} from "./providers/web-search.js";
export { cacheScopeKey, namespaceProblem, resolveCacheScope, SEMANTIC_CACHE_LIMITS } from "./providers/semantic-cache.js";
export type { ToolProviders } from "./providers/tool-providers.js";
export type { WorkflowToolCall, WorkflowToolInfo, WorkflowToolRef, WorkflowToolResult, WorkflowTools } from "./providers/workflow-tools.js";
export type { McpToolInfo, McpToolResult, McpTools } from "./providers/mcp-tools.js";
export type { HttpClient, HttpMethod, HttpRequest, HttpResponse, SecretText } from "./providers/http-client.js";
export {
  approximateTokens,
  fitMessages,
  formatTranscript,
  retainMessages,
  runQuestionText,
  THREAD_LIMITS,
  turnMessages,
} from "./providers/thread-history.js";
export type { ThreadHistory, ThreadMessage, ThreadRetention, ThreadRole } from "./providers/thread-history.js";
export { threadChannels, threadQuestion, threadStateOf, workflowUsesThread } from "./threads/thread-workflow.js";
export type {
  CachedAnswer,
  CacheScope,
  SemanticCache,
  SemanticCacheEntry,
  SemanticCacheHit,
  SemanticCachePage,
  SemanticCachePut,
  SemanticCacheStore,
  WorkflowRevision,
} from "./providers/semantic-cache.js";
