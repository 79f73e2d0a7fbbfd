import { parseArgs } from "node:util";
import type { RunEvent, RunOutcome } from "@weft/engine";
import { writeLine, type CliIo } from "../cli-io.js";
import { configureProviders } from "../configured-providers.js";
import type { CliEnv } from "../env.js";
import { EXIT, type ExitCode } from "../exit-codes.js";
import { formatProgress } from "../run-progress.printer.js";
import { UsageError } from "../usage.js";
import { toReportedViolations } from "../violation-report.mapper.js";
import { readWorkflowFile } from "../workflow-file.reader.js";
import { runWorkflowFile } from "../workflow-file.runner.js";

/**
 * `weft run FILE [--input TEXT] [--json] [--thread FILE] [--knowledge-base NAME=DIR]…`: runs the file
 * (workflow-file.runner.ts), printing its events as they come. Ctrl-C cancels the run (in-flight
 * provider calls are aborted); a second Ctrl-C exits at once.
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
    const run = {
      file: positionals[0] as string,
      workflow: read.workflow,
      ...(values.input === undefined ? {} : { input: values.input }),
      ...(values.thread === undefined ? {} : { threadFile: values.thread }),
      knowledgeBases: values["knowledge-base"] ?? [],
      onEvent: (event: RunEvent) => (json ? writeLine(io.stdout, JSON.stringify(event)) : printProgress(io, event, startedAt)),
      signal: controller.signal,
    };
    const result = await runWorkflowFile(run, configureProviders(env), env);
    if (result.ok) return await finish(io, json, result.outcome);
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

async function finish(io: CliIo, json: boolean, outcome: RunOutcome): Promise<ExitCode> {
  if (outcome.status === "CANCELLED") return EXIT.INTERRUPTED;
  if (outcome.status === "FAILED") return EXIT.FAILED;
  if (!json) await writeLine(io.stdout, outcome.result ?? "");
  return EXIT.OK;
}

async function refuse(io: CliIo, json: boolean, report: object, lines: string[]): Promise<ExitCode> {
  if (json) await writeLine(io.stdout, JSON.stringify(report));
  else for (const line of lines) await writeLine(io.stderr, line);
  return EXIT.BAD_INPUT;
}
