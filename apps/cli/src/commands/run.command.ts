import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { pipelineRegistry, prepareRun, runWorkflow, type RunEvent, type RunOutcome, type Workflow } from "@weft/engine";
import { writeLine, type CliIo } from "../cli-io.js";
import { configureProviders } from "../configured-providers.js";
import type { CliEnv } from "../env.js";
import { EXIT, type ExitCode } from "../exit-codes.js";
import { formatProgress } from "../run-progress.printer.js";
import { UsageError } from "../usage.js";
import { toReportedViolations } from "../violation-report.mapper.js";
import { readWorkflowFile } from "../workflow-file.reader.js";

/**
 * `weft run FILE [--input TEXT] [--json]`: prepares the run with the engine's prepareRun (every rule,
 * as `validate` checks them, and the input contents), then executes it. Ctrl-C cancels the run (in-flight provider calls are aborted); a second Ctrl-C
 * exits at once.
 */
export async function runCommand(argv: string[], io: CliIo, env: CliEnv): Promise<ExitCode> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { input: { type: "string" }, json: { type: "boolean", default: false } },
  });
  if (positionals.length !== 1) throw new UsageError("run takes exactly one FILE");
  const json = values.json ?? false;
  const read = await readWorkflowFile(positionals[0] as string);
  if (!read.ok) {
    const lines = [`${read.error.code}: ${read.error.message}`];
    return refuse(io, json, { valid: false, error: read.error }, lines);
  }
  const workflow = read.workflow;
  const { providers, models, tools } = configureProviders(env);
  const request = values.input === undefined ? {} : { inputs: contentForInputs(workflow, values.input) };
  const prepared = prepareRun(workflow, request, { models, registry: pipelineRegistry, ...(env.WEFT_CONCURRENCY === undefined ? {} : { concurrency: env.WEFT_CONCURRENCY }) });
  if (!prepared.ok) {
    const lines = prepared.violations.map((violation) => `${violation.code}: ${violation.message}`);
    return refuse(io, json, { valid: false, violations: toReportedViolations(workflow, prepared.violations) }, lines);
  }

  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(EXIT.INTERRUPTED);
    controller.abort(new Error("interrupted (SIGINT)"));
  };
  process.on("SIGINT", onSigint);
  const startedAt = Date.now();
  try {
    const outcome = await runWorkflow({
      runId: randomUUID(),
      prepared: prepared.run,
      registry: pipelineRegistry,
      providers,
      // Cache entries live in memory for this command; the file stands for the workflow version.
      tools: { ...tools, workflowVersion: { workflowId: `file:${positionals[0] as string}`, version: 0 } },
      signal: controller.signal,
      onEvent: (event: RunEvent) => (json ? writeLine(io.stdout, JSON.stringify(event)) : printProgress(io, event, startedAt)),
    });
    return await finish(io, json, outcome);
  } finally {
    process.off("SIGINT", onSigint);
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
