import { parseArgs } from "node:util";
import { builtInRegistry, validateWorkflow } from "@weft/engine";
import { writeJson, type CliIo } from "../cli-io.js";
import { configureProviders } from "../configured-providers.js";
import type { CliEnv } from "../env.js";
import { EXIT, type ExitCode } from "../exit-codes.js";
import { UsageError } from "../usage.js";
import { toReportedViolations } from "../violation-report.mapper.js";
import { readWorkflowFile } from "../workflow-file.reader.js";

/**
 * `weft validate FILE`: every rule (SPEC §3, SPEC-V2 §5), MODEL_UNAVAILABLE included (checked against
 * the providers this environment configures), for `weft.workflow/v1` and `/v2` files. Prints one JSON
 * object on stdout.
 */
export async function validateCommand(argv: string[], io: CliIo, env: CliEnv): Promise<ExitCode> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: {} });
  if (positionals.length !== 1) throw new UsageError("validate takes exactly one FILE");
  const read = await readWorkflowFile(positionals[0] as string);
  if (!read.ok) {
    await writeJson(io.stdout, { valid: false, error: read.error });
    return EXIT.BAD_INPUT;
  }
  const { models } = configureProviders(env);
  const violations = validateWorkflow(read.workflow, { models, registry: builtInRegistry });
  await writeJson(io.stdout, { valid: violations.length === 0, violations: toReportedViolations(read.workflow, violations) });
  return violations.length === 0 ? EXIT.OK : EXIT.FAILED;
}
