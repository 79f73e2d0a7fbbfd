import type { RunEvent, RunEventOf, RunEventType } from "../events/run-event.js";
import type { JsonValue } from "../model/json-value.js";
import type { Workflow } from "../model/workflow.js";
import type { LlmProvider } from "../providers/llm-provider.js";
import type { Retriever } from "../providers/retrieval.js";
import type { ToolProviders } from "../providers/tool-providers.js";
import { OfflineLlmProvider } from "../providers/offline-llm-provider.js";
import { builtInRegistry } from "../node-types/built-in-node-types.js";
import type { Sleep } from "../model/abortable-sleep.js";
import { prepareRunUnchecked } from "../execute/prepare-run.js";
import { runWorkflow } from "../execute/run-workflow.js";
import type { RunRequest } from "../execute/run-settings.js";
import type { RunResume } from "../execute/run-resume.js";
import type { HumanTaskAnswers } from "../execute/human-task-answers.js";
import type { RunOutcome } from "../execute/workflow-runner.js";
import { preparedOrThrow, splitHarnessOptions, type HarnessOptions } from "./prepared-run.harness.js";

export interface PipelineRunInput {
  workflow: Workflow;
  /** Waits of the offline models (`params.delayMs`): a virtual clock's, or none. */
  sleep?: Sleep;
  providers?: LlmProvider[];
  request?: RunRequest;
  signal?: AbortSignal;
  options?: HarnessOptions;
  state?: Record<string, JsonValue>;
  onEvent?: (event: RunEvent) => void;
  /** Knowledge bases, web search and the semantic cache for the tool types. */
  tools?: ToolProviders;
  /** The knowledge-base search of model nodes (`knowledgeBase`, `{context}`). */
  retriever?: Retriever;
  /** Continue a run an earlier attempt had started. */
  resume?: RunResume;
  /** Answers to the run's tasks for people. */
  humanAnswers?: HumanTaskAnswers;
}

export interface PipelineRun {
  outcome: RunOutcome;
  events: RunEvent[];
  /** `"TYPE node@invocation"` (`@…` only when the invocation is not top level), or the type alone. */
  trace: string[];
  of<T extends RunEventType>(type: T): RunEventOf<T>[];
}

/**
 * Starts a run with every built-in type and the offline models; `done` settles with the recording. The
 * graph's rules are not checked (tests run broken graphs on purpose); the request is.
 */
export function startPipeline(input: PipelineRunInput): { events: RunEvent[]; done: Promise<PipelineRun> } {
  const events: RunEvent[] = [];
  const offline = new OfflineLlmProvider({ sleep: input.sleep ?? (async () => undefined) });
  const providers = new Map([offline, ...(input.providers ?? [])].map((provider) => [provider.id, provider]));
  const { policy, execution } = splitHarnessOptions(input.options);
  const request = input.state ? { ...input.request, state: input.state } : input.request;
  let prepared;
  try {
    prepared = preparedOrThrow(prepareRunUnchecked(input.workflow, request ?? {}, { ...policy, registry: builtInRegistry }));
  } catch (error) {
    return { events, done: Promise.reject(error as Error) };
  }
  const done = runWorkflow({
    runId: "run-1",
    prepared,
    registry: builtInRegistry,
    providers,
    signal: input.signal,
    ...(input.tools ? { tools: input.tools } : {}),
    ...(input.retriever ? { retriever: input.retriever } : {}),
    options: execution,
    ...(input.resume ? { resume: input.resume } : {}),
    ...(input.humanAnswers ? { humanAnswers: input.humanAnswers } : {}),
    onEvent: (event) => {
      events.push(event);
      input.onEvent?.(event);
    },
  }).then((outcome) => ({
    outcome,
    events,
    trace: events.map(describe),
    of: <T extends RunEventType>(type: T) => events.filter((event): event is RunEventOf<T> => event.type === type),
  }));
  return { events, done };
}

export function runPipeline(input: PipelineRunInput): Promise<PipelineRun> {
  return startPipeline(input).done;
}

function describe(event: RunEvent): string {
  if (!("nodeId" in event) || !event.nodeId) return "loopId" in event ? `${event.type} ${event.loopId}` : event.type;
  const invocation = "invocation" in event && event.invocation ? `@${event.invocation}` : "";
  return `${event.type} ${event.nodeId}${invocation}`;
}
