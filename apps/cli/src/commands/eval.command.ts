import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { writeJson, writeLine, type CliIo } from "../cli-io.js";
import type { CliEnv } from "../env.js";
import { EXIT, type ExitCode } from "../exit-codes.js";
import { UsageError } from "../usage.js";
import { readMinimums, readScorers } from "../eval/eval-arguments.js";
import { judge, jsonReport, textReport } from "../eval/eval-report.printer.js";
import { EvalInterrupted, runEvaluation, type EvalTarget } from "../eval/experiment-session.js";
import { GraphqlHttpClient } from "../eval/graphql-http.client.js";

/**
 * `weft eval WORKFLOW --dataset DATASET --scorer SPEC… [--min [SCORER=]RATE]… [--json]`: an experiment on
 * the Weft API at WEFT_API_URL (docs/cli.md#evaluations). Progress goes to stderr, the table (or with
 * --json one JSON object) to stdout. Exit 0 when every scorer meets its minimum, 1 below one, 2 for a
 * wrong command line, an API refusal or an experiment that did not complete, 130 on Ctrl-C (the
 * experiment is cancelled on the server).
 */
export async function evalCommand(argv: string[], io: CliIo, env: CliEnv): Promise<ExitCode> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      dataset: { type: "string" },
      version: { type: "string" },
      draft: { type: "boolean", default: false },
      scorer: { type: "string", multiple: true, default: [] },
      scorers: { type: "string" },
      min: { type: "string", multiple: true, default: [] },
      concurrency: { type: "string" },
      json: { type: "boolean", default: false },
      keep: { type: "boolean", default: false },
    },
  });
  if (positionals.length !== 1) throw new UsageError("eval takes exactly one WORKFLOW (a workflow's id, or a workflow file)");
  if (values.dataset === undefined) throw new UsageError("eval needs --dataset (a dataset's id, or a JSONL or CSV file)");
  if (values.version !== undefined && values.draft) throw new UsageError("give --version N or --draft, not both");
  if (!env.WEFT_API_URL) throw new UsageError("eval runs on a Weft API: set WEFT_API_URL (and WEFT_API_KEY)");
  const scorersFile = values.scorers === undefined ? undefined : await readScorersFile(values.scorers);
  const scorers = readScorers(values.scorer ?? [], scorersFile, values.scorers);
  const minimums = readMinimums(values.min ?? [], scorers);
  const target: EvalTarget = {
    workflow: positionals[0] as string,
    dataset: values.dataset,
    draft: values.draft ?? false,
    scorers,
    keep: values.keep ?? false,
    ...(values.version === undefined ? {} : { version: positiveInteger("--version", values.version) }),
    ...(values.concurrency === undefined ? {} : { concurrency: positiveInteger("--concurrency", values.concurrency) }),
  };

  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(EXIT.INTERRUPTED);
    io.stderr.write("cancelling the experiment… (Ctrl-C again to leave it running)\n");
    controller.abort();
  };
  process.on("SIGINT", onSigint);
  try {
    const client = new GraphqlHttpClient(apiEndpoint(env.WEFT_API_URL), env.WEFT_API_KEY);
    const outcome = await runEvaluation(client, target, {
      onProgress: (progress) => io.stderr.write(`… ${progress.completed + progress.failed}/${progress.rows} rows done${progress.failed ? ` (${progress.failed} failed)` : ""}\n`),
      warn: (message) => io.stderr.write(`weft: warning: ${message}\n`),
      signal: controller.signal,
    });
    const { verdicts, passed } = judge(outcome, minimums);
    if (values.json) await writeJson(io.stdout, jsonReport(outcome, verdicts, passed));
    else for (const line of textReport(outcome, verdicts, passed)) await writeLine(io.stdout, line);
    if (outcome.interrupted) return EXIT.INTERRUPTED;
    if (outcome.experiment.status !== "COMPLETED") return EXIT.BAD_INPUT;
    return passed ? EXIT.OK : EXIT.FAILED;
  } catch (error) {
    if (!(error instanceof EvalInterrupted)) throw error;
    io.stderr.write(`weft: ${error.message}; nothing ran\n`);
    return EXIT.INTERRUPTED;
  } finally {
    process.off("SIGINT", onSigint);
  }
}

/** WEFT_API_URL may name the server (`http://host:4000`) or its GraphQL endpoint (`…/graphql`). */
export function apiEndpoint(url: string): string {
  const parsed = new URL(url);
  if (parsed.pathname === "/" || parsed.pathname === "") parsed.pathname = "/graphql";
  return parsed.toString();
}

function positiveInteger(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`${flag} takes a whole number from 1 (given "${text}")`);
  return value;
}

async function readScorersFile(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`--scorers ${path}: ${(error as Error).message}`);
  }
}
