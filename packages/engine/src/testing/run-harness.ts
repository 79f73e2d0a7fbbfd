import type { RunEvent, RunEventOf, RunEventType } from "../events/run-event.js";
import type { Workflow } from "../model/workflow.js";
import type { LlmProvider } from "../providers/llm-provider.js";
import type { Retriever } from "../providers/retrieval.js";
import { builtInRegistry } from "../node-types/built-in-node-types.js";
import { prepareRun } from "../execute/prepare-run.js";
import { runWorkflow } from "../execute/run-workflow.js";
import type { RunRequest } from "../execute/run-settings.js";
import type { RunOutcome } from "../execute/workflow-runner.js";
import { providers } from "./fake-llm-provider.js";
import { preparedOrThrow, splitHarnessOptions, type HarnessOptions } from "./prepared-run.harness.js";

export interface HarnessInput {
  workflow: Workflow;
  provider: LlmProvider | LlmProvider[];
  request?: RunRequest;
  retriever?: Retriever;
  signal?: AbortSignal;
  options?: HarnessOptions;
  onEvent?: (event: RunEvent) => void | Promise<void>;
}

export interface RecordedRun {
  outcome: RunOutcome;
  events: RunEvent[];
  /** `"TYPE nodeId"` per event (or just the type for run events): easy to compare orders. */
  trace: string[];
  of<T extends RunEventType>(type: T): RunEventOf<T>[];
}

export const registry = builtInRegistry;

/**
 * Prepares a run with the built-in registry (throwing a RUN_REFUSED WeftError that lists the violations
 * when it cannot start), starts it and records its events; `done` settles with the recording.
 */
export function startRun(input: HarnessInput): { events: RunEvent[]; done: Promise<RecordedRun> } {
  const events: RunEvent[] = [];
  const list = Array.isArray(input.provider) ? input.provider : [input.provider];
  const { policy, execution } = splitHarnessOptions(input.options);
  let prepared;
  try {
    prepared = preparedOrThrow(prepareRun(input.workflow, input.request ?? {}, { ...policy, registry }));
  } catch (error) {
    return { events, done: Promise.reject(error as Error) };
  }
  const done = runWorkflow({
    runId: "run-1",
    prepared,
    registry,
    providers: providers(...list),
    retriever: input.retriever,
    signal: input.signal,
    options: execution,
    onEvent: (event) => {
      events.push(event);
      return input.onEvent?.(event);
    },
  }).then((outcome) => record(outcome, events));
  return { events, done };
}

export function run(input: HarnessInput): Promise<RecordedRun> {
  return startRun(input).done;
}

export function trace(events: readonly RunEvent[]): string[] {
  return events.map((event) => ("nodeId" in event && event.nodeId ? `${event.type} ${event.nodeId}` : event.type));
}

function record(outcome: RunOutcome, events: RunEvent[]): RecordedRun {
  return {
    outcome,
    events,
    trace: trace(events),
    of: <T extends RunEventType>(type: T) => events.filter((event): event is RunEventOf<T> => event.type === type),
  };
}
