import { randomUUID } from "node:crypto";
import {
  HumanTaskAnswers,
  builtInRegistry,
  prepareRun,
  resumeFromEvents,
  runWorkflow,
  type HumanTaskAnswer,
  type PreparedRun,
  type RunEvent,
  type RunEventHandler,
  type RunOutcome,
  type RunViolation,
  type Workflow,
} from "@weft/engine";
import type { ConfiguredProviders } from "./configured-providers.js";
import type { CliEnv } from "./env.js";
import { configureRunTools, type RunTools } from "./run-tools.js";
import type { OpenTask, TaskAnswerer } from "./human/task-answerer.js";

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
  /** Answers the tasks of `human` nodes (`--answers`, the terminal); without it a run reaching one ends WAITING. */
  answerTask?: TaskAnswerer;
}

/** `openTasks`: what a run that ended WAITING waits for. */
export type WorkflowFileRunResult = { ok: false; violations: RunViolation[] } | { ok: true; runId: string; outcome: RunOutcome; openTasks: OpenTask[] };

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
    const policy = { models: configured.models, registry: builtInRegistry, ...(env.WEFT_CONCURRENCY === undefined ? {} : { concurrency: env.WEFT_CONCURRENCY }) };
    const prepared = prepareRun(workflow, request, policy);
    if (!prepared.ok) return { ok: false, violations: prepared.violations };
    const runId = randomUUID();
    const { outcome, openTasks } = await executeWithPeople(run, { runId, prepared: prepared.run, configured, tools });
    await tools.finish(prepared.run, outcome, runId);
    return { ok: true, runId, outcome, openTasks };
  } finally {
    await tools.release();
  }
}

/**
 * Executes the run as the API's workers do with people in the loop: when it ends WAITING, each open
 * task is answered (`run.answerTask`) and the run continues from its events with the answers — no node
 * runs twice. It stops at the run's end, or WAITING with the tasks nobody answered.
 */
async function executeWithPeople(
  run: WorkflowFileRun,
  execution: { runId: string; prepared: PreparedRun; configured: ConfiguredProviders; tools: RunTools },
): Promise<{ outcome: RunOutcome; openTasks: OpenTask[] }> {
  const events: RunEvent[] = [];
  const answers = new Map<string, HumanTaskAnswer>();
  for (let attempt = 1; ; attempt += 1) {
    const resume = attempt === 1 ? null : { attempt, lastSeq: events.at(-1)!.seq, record: resumeFromEvents(events.map((event) => ({ ...event }))) };
    const outcome = await runWorkflow({
      runId: execution.runId,
      prepared: execution.prepared,
      registry: builtInRegistry,
      providers: execution.configured.providers,
      tools: execution.tools.tools,
      onEvent: (event) => {
        events.push(event);
        return run.onEvent(event);
      },
      ...(run.signal ? { signal: run.signal } : {}),
      resume,
      humanAnswers: new HumanTaskAnswers(answers),
    });
    if (outcome.status !== "WAITING") return { outcome, openTasks: [] };
    const open = events.filter((event): event is OpenTask => event.type === "NODE_WAITING" && outcome.waitingFor!.includes(event.taskId));
    const unanswered: OpenTask[] = [];
    for (const task of open) {
      const answer = run.answerTask && !run.signal?.aborted ? await run.answerTask(task) : null;
      if (answer) answers.set(task.taskId, answer);
      else unanswered.push(task);
    }
    if (unanswered.length === open.length) return { outcome, openTasks: unanswered };
  }
}

/** `--input` fills every node that takes no pre-node, which is what the executor treats as an input. */
function contentForInputs(workflow: Workflow, content: string): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const node of workflow.nodes) {
    if (builtInRegistry.require(node.type).inDegree.max === 0) inputs[node.id] = content;
  }
  return inputs;
}
