#!/usr/bin/env node
import { WeftError } from "@weft/engine";
import { evalCommand } from "./commands/eval.command.js";
import { runCommand } from "./commands/run.command.js";
import { validateCommand } from "./commands/validate.command.js";
import type { CliIo } from "./cli-io.js";
import { ApiError } from "./eval/api-error.js";
import { loadEnv } from "./env.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { USAGE } from "./usage.js";

const COMMANDS = { validate: validateCommand, run: runCommand, eval: evalCommand } as const;

async function main(argv: string[], io: CliIo): Promise<ExitCode> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    io.stdout.write(`${USAGE}\n`);
    return name === undefined ? EXIT.BAD_INPUT : EXIT.OK;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name as keyof typeof COMMANDS] : undefined;
  try {
    if (!command) throw Object.assign(new Error(`unknown command "${name}"`), { code: "USAGE" });
    return await command(rest, io, loadEnv());
  } catch (error) {
    return reportError(io, error);
  }
}

/** Wrong usage, a bad environment and an API refusal are the user's to fix (exit 2); anything else is a bug (exit 70). */
function reportError(io: CliIo, error: unknown): ExitCode {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === "USAGE" || (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS"))) {
    io.stderr.write(`weft: ${message}\n\n${USAGE}\n`);
    return EXIT.BAD_INPUT;
  }
  if (code === "ENV_INVALID") {
    io.stderr.write(`weft: ${message}\n`);
    return EXIT.BAD_INPUT;
  }
  if (error instanceof ApiError) {
    io.stderr.write(`weft: ${error.code}: ${message}\n`);
    return EXIT.BAD_INPUT;
  }
  if (error instanceof WeftError && error.audience === "user") {
    io.stderr.write(`weft: ${error.code}: ${message}\n`);
    return EXIT.BAD_INPUT;
  }
  io.stderr.write(`weft: unexpected error: ${error instanceof Error ? (error.stack ?? message) : message}\n`);
  return EXIT.INTERNAL;
}

// A reader that stops early (`weft run … --json | head`) closes the pipe: stop quietly, as Unix tools do.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? EXIT.OK);
  throw error;
});

process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });
