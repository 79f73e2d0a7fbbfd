import { randomUUID } from "node:crypto";
import { pipelineRegistry, prepareRun, runWorkflow, type RunEventHandler, type RunOutcome, type RunViolation, type Workflow } from "@weft/engine";
import type { ConfiguredProviders } from "./configured-providers.js";
import type { CliEnv } from "./env.js";
import { configureRunTools } from "./run-tools.js";

/** One run of a workflow file, as `weft run` does it. */
export interface WorkflowFileRun {
  file: string;
  workflow: Workflow;
  /** `--input`: content for every input node. */
  input?: string;
  /** `--thread FILE`. */
  threadFile?: string;
  /** `--knowledge-base NAME=DIR`, any number. */
  knowledgeBases?: readonly string[];
  onEvent: RunEventHandler;
  signal?: AbortSignal;
}

export type WorkflowFileRunResult = { ok: false; violations: RunViolation[] } | { ok: true; runId: string; outcome: RunOutcome };

/**
 * Prepares the run with the engine's prepareRun (every rule, as `validate` checks them, the input
 * contents and the thread's state), executes it with the configured providers, folder knowledge bases
 * and a thread (a thread file, else an empty one), and records a completed run's turn in the thread file.
 * Runs sharing one `configured` share its semantic cache.
 */
export async function runWorkflowFile(run: WorkflowFileRun, configured: ConfiguredProviders, env: CliEnv): Promise<WorkflowFileRunResult> {
  const { workflow } = run;
  const tools = await configureRunTools(configured, env, { workflowFile: run.file, workflow, knowledgeBases: run.knowledgeBases ?? [], threadFile: run.threadFile });
  try {
    const request = { state: tools.state, ...(run.input === undefined ? {} : { inputs: contentForInputs(workflow, run.input) }) };
    const policy = { models: configured.models, registry: pipelineRegistry, ...(env.WEFT_CONCURRENCY === undefined ? {} : { concurrency: env.WEFT_CONCURRENCY }) };
    const prepared = prepareRun(workflow, request, policy);
    if (!prepared.ok) return { ok: false, violations: prepared.violations };
    const runId = randomUUID();
    const outcome = await runWorkflow({
      runId,
      prepared: prepared.run,
      registry: pipelineRegistry,
      providers: configured.providers,
      tools: tools.tools,
      onEvent: run.onEvent,
      ...(run.signal ? { signal: run.signal } : {}),
    });
    await tools.finish(prepared.run, outcome, runId);
    return { ok: true, runId, outcome };
  } finally {
    await tools.release();
  }
}

/** `--input` fills every node that takes no pre-node, which is what the executor treats as an input. */
function contentForInputs(workflow: Workflow, content: string): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const node of workflow.nodes) {
    if (pipelineRegistry.require(node.type).inDegree.max === 0) inputs[node.id] = content;
  }
  return inputs;
}
