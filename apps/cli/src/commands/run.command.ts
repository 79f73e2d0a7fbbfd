import { parseArgs } from "node:util";
import { jsonText, type RunEvent, type RunOutcome } from "@weft/engine";
import { writeLine, type CliIo } from "../cli-io.js";
import { configureProviders } from "../configured-providers.js";
import type { CliEnv } from "../env.js";
import { EXIT, type ExitCode } from "../exit-codes.js";
import { formatProgress } from "../run-progress.printer.js";
import { UsageError } from "../usage.js";
import { toReportedViolations } from "../violation-report.mapper.js";
import { readWorkflowFile } from "../workflow-file.reader.js";
import { runWorkflowFile } from "../workflow-file.runner.js";
import { FileAnswers, readAnswersFile } from "../human/answers-file.reader.js";
import { fileAnswerer, firstAnswer, localUser, type OpenTask, type TaskAnswerer } from "../human/task-answerer.js";
import { terminalAnswerer } from "../human/terminal-task.prompt.js";

/**
 * `weft run FILE [--input TEXT] [--json] [--thread FILE] [--knowledge-base NAME=DIR]… [--answers FILE]`:
 * runs the file (workflow-file.runner.ts), printing its events as they come. Tasks of `human` nodes are
 * answered from `--answers`, else on the terminal when stdin is one; otherwise the open tasks are
 * printed and the command exits 3. Ctrl-C cancels the run (in-flight provider calls are aborted); a
 * second Ctrl-C exits at once.
 */
export async function runCommand(argv: string[], io: CliIo, env: CliEnv): Promise<ExitCode> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      input: { type: "string" },
      json: { type: "boolean", default: false },
      thread: { type: "string" },
      "knowledge-base": { type: "string", multiple: true, default: [] },
      answers: { type: "string" },
    },
  });
  if (positionals.length !== 1) throw new UsageError("run takes exactly one FILE");
  const json = values.json ?? false;
  const read = await readWorkflowFile(positionals[0] as string);
  if (!read.ok) {
    const lines = [`${read.error.code}: ${read.error.message}`];
    return refuse(io, json, { valid: false, error: read.error }, lines);
  }
  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(EXIT.INTERRUPTED);
    controller.abort(new Error("interrupted (SIGINT)"));
  };
  process.on("SIGINT", onSigint);
  const startedAt = Date.now();
  try {
    const answerTask = await answererFor(io, values.answers, controller.signal);
    const run = {
      file: positionals[0] as string,
      workflow: read.workflow,
      ...(values.input === undefined ? {} : { input: values.input }),
      ...(values.thread === undefined ? {} : { threadFile: values.thread }),
      knowledgeBases: values["knowledge-base"] ?? [],
      onEvent: (event: RunEvent) => (json ? writeLine(io.stdout, JSON.stringify(event)) : printProgress(io, event, startedAt)),
      signal: controller.signal,
      ...(answerTask ? { answerTask } : {}),
    };
    const result = await runWorkflowFile(run, configureProviders(env), env);
    if (result.ok) return await finish(io, json, result.outcome, result.openTasks);
    const lines = result.violations.map((violation) => `${violation.code}: ${violation.message}`);
    return await refuse(io, json, { valid: false, violations: toReportedViolations(read.workflow, result.violations) }, lines);
  } finally {
    process.off("SIGINT", onSigint);
  }
}

async function printProgress(io: CliIo, event: RunEvent, startedAt: number): Promise<void> {
  const line = formatProgress(event, startedAt);
  if (line !== null) await writeLine(io.stderr, line);
}

async function finish(io: CliIo, json: boolean, outcome: RunOutcome, openTasks: OpenTask[]): Promise<ExitCode> {
  if (outcome.status === "CANCELLED") return EXIT.INTERRUPTED;
  if (outcome.status === "FAILED") return EXIT.FAILED;
  if (outcome.status === "WAITING") {
    // With --json the NODE_WAITING lines already describe each task.
    if (!json) for (const task of openTasks) await writeLine(io.stdout, describeOpenTask(task));
    return EXIT.WAITING;
  }
  if (!json) await writeLine(io.stdout, outcome.result ?? "");
  return EXIT.OK;
}

/** `--answers FILE` first, then the terminal when stdin is one; none: the run stops at its first task. */
async function answererFor(io: CliIo, answersFile: string | undefined, signal: AbortSignal): Promise<TaskAnswerer | null> {
  const user = localUser();
  const answerers: TaskAnswerer[] = [];
  if (answersFile !== undefined) answerers.push(fileAnswerer(new FileAnswers(await readAnswersFile(answersFile)), user));
  if (io.stdin?.isTTY) answerers.push(terminalAnswerer(io.stdin, io.stderr, user, signal));
  return answerers.length === 0 ? null : firstAnswer(answerers);
}

function describeOpenTask(task: OpenTask): string {
  const where = task.invocation ? `${task.nodeId}@${task.invocation}` : task.nodeId;
  return [
    `waiting for a person: ${task.title} (node ${where}, task ${task.taskId}${task.assignee ? `, for ${task.assignee}` : ""})`,
    ...(task.instructions ? [task.instructions] : []),
    `input: ${jsonText(task.input)}`,
    `actions: ${task.actions.map((action) => action.id).join(", ")}`,
    `answer with --answers FILE, e.g. [{"nodeId": "${task.nodeId}", "action": "${task.actions[0]?.id ?? "approve"}"}]`,
  ].join("\n");
}

async function refuse(io: CliIo, json: boolean, report: object, lines: string[]): Promise<ExitCode> {
  if (json) await writeLine(io.stdout, JSON.stringify(report));
  else for (const line of lines) await writeLine(io.stderr, line);
  return EXIT.BAD_INPUT;
}
