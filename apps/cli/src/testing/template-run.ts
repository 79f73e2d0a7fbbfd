import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { JsonValue, RunEvent, RunEventOf, RunEventType, RunOutcome, Workflow, WorkflowNode } from "@weft/engine";
import { configureProviders, type ConfiguredProviders } from "../configured-providers.js";
import { loadEnv } from "../env.js";
import { readWorkflowFile } from "../workflow-file.reader.js";
import { runWorkflowFile } from "../workflow-file.runner.js";

/** Runs the templates of examples/ in-process, exactly as `weft run` does, and reads the run from its events. */

export const EXAMPLES = resolve(fileURLToPath(import.meta.url), "../../../../../examples");
const env = loadEnv({});

/** Providers to share between runs (one semantic cache for all of them), as one long-lived process would. */
export function sharedProviders(): ConfiguredProviders {
  return configureProviders(env);
}

export interface TemplateRunOptions {
  input?: string;
  threadFile?: string;
  providers?: ConfiguredProviders;
  /** Changes the workflow before the run (e.g. other scripted replies), given a copy. */
  patch?: (workflow: Workflow) => void;
}

export interface TemplateRun {
  outcome: RunOutcome;
  events: RunEvent[];
  of<T extends RunEventType>(type: T): RunEventOf<T>[];
  /** The ports a router took, one list per invocation. */
  took(nodeId: string): string[][];
  /** The invocation paths a node started under, in order. */
  started(nodeId: string): string[];
  /** The JSON value (or text) a node completed with, at one invocation. */
  value(nodeId: string, invocation?: string): JsonValue | undefined;
}

export async function runTemplate(name: string, options: TemplateRunOptions = {}): Promise<TemplateRun> {
  const file = join(EXAMPLES, name);
  const read = await readWorkflowFile(file);
  if (!read.ok) throw new Error(`${name}: ${read.error.code}: ${read.error.message}`);
  const workflow = structuredClone(read.workflow);
  options.patch?.(workflow);
  const events: RunEvent[] = [];
  const result = await runWorkflowFile(
    {
      file,
      workflow,
      ...(options.input === undefined ? {} : { input: options.input }),
      ...(options.threadFile === undefined ? {} : { threadFile: options.threadFile }),
      onEvent: (event) => void events.push(event),
    },
    options.providers ?? sharedProviders(),
    env,
  );
  if (!result.ok) throw new Error(`${name}: refused: ${result.violations.map((violation) => violation.code).join(", ")}`);
  const of = <T extends RunEventType>(type: T) => events.filter((event): event is RunEventOf<T> => event.type === type);
  return {
    outcome: result.outcome,
    events,
    of,
    took: (nodeId) => of("BRANCH_TAKEN").filter((event) => event.nodeId === nodeId).map((event) => event.ports),
    started: (nodeId) => of("NODE_STARTED").filter((event) => event.nodeId === nodeId).map((event) => event.invocation),
    value: (nodeId, invocation = "") => {
      const done = of("NODE_COMPLETED").find((event) => event.nodeId === nodeId && event.invocation === invocation);
      return done === undefined ? undefined : (done.value ?? done.output);
    },
  };
}

/** A node anywhere in the workflow, bodies included. */
export function findNode(graph: { nodes: WorkflowNode[] }, id: string): WorkflowNode {
  for (const node of graph.nodes) {
    if (node.id === id) return node;
    const body = node.config?.body as { nodes: WorkflowNode[] } | undefined;
    if (body) {
      try {
        return findNode(body, id);
      } catch {
        // not in this body
      }
    }
  }
  throw new Error(`no node "${id}"`);
}

/** Makes a scripted node answer `replies` whatever its prompt says. */
export function script(workflow: Workflow, nodeId: string, replies: JsonValue[]): void {
  const node = findNode(workflow, nodeId);
  node.params = { replies };
}
