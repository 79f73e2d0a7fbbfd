import type { PreparedRun } from "../execute/prepare-run.js";
import type { JsonValue } from "../model/json-value.js";
import { runQuestionText } from "../providers/thread-history.js";
import type { WorkflowGraph, WorkflowSettings } from "../model/workflow.js";
import type { NodeTypeRegistry } from "../registry/node-type-registry.js";

/** What a caller needs to know to run a workflow on a thread (SPEC-V2 §7). */

type Stateful = Pick<WorkflowSettings, "state">;

/** The state channels declared with `scope: "thread"`: loaded from the thread before a run, stored after it. */
export function threadChannels(workflow: Stateful): string[] {
  return Object.entries(workflow.state ?? {})
    .filter(([, channel]) => channel.scope === "thread")
    .map(([name]) => name);
}

/** The thread channels' values among `state` (a run's final state, or a thread's stored state). */
export function threadStateOf(state: Readonly<Record<string, JsonValue>> | null | undefined, workflow: Stateful): Record<string, JsonValue> {
  const kept: Record<string, JsonValue> = {};
  for (const channel of threadChannels(workflow)) {
    const value = state?.[channel];
    if (value !== undefined) kept[channel] = value;
  }
  return kept;
}

/**
 * Whether the workflow reads a thread: it declares a thread channel or has a node whose type reads the
 * thread (`history`), bodies included. Such a workflow run without a thread gets a new one.
 */
export function workflowUsesThread(workflow: WorkflowGraph & Stateful, registry: NodeTypeRegistry): boolean {
  return threadChannels(workflow).length > 0 || graphReadsThread(workflow, registry);
}

function graphReadsThread(graph: WorkflowGraph, registry: NodeTypeRegistry): boolean {
  return graph.nodes.some((node) => {
    const spec = registry.get(node.type);
    if (spec?.usesThread) return true;
    const body = spec?.body?.graph(node);
    return body ? graphReadsThread(body, registry) : false;
  });
}

/**
 * The question a run on a thread was asked — the user message its turn adds: its input nodes' contents
 * (the supplied ones, else their own), joined in node order, as CEL's `run.inputs` sees them.
 */
export function threadQuestion(prepared: Pick<PreparedRun, "workflow" | "inputs">, registry: NodeTypeRegistry): string {
  const inputs: Record<string, JsonValue> = {};
  for (const node of prepared.workflow.nodes) {
    if (registry.get(node.type)?.inDegree.max === 0) inputs[node.id] = prepared.inputs[node.id] ?? node.content ?? "";
  }
  return runQuestionText(inputs);
}
