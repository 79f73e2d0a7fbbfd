/**
 * The command line's public surface for programs that run workflow files in-process (the benchmarks):
 * running a file as `weft run` does, with the providers its environment configures. Everything else is
 * internal.
 */
export { configureProviders, type ConfiguredProviders } from "./configured-providers.js";
export { loadEnv, type CliEnv } from "./env.js";
export { readWorkflowFile, type ReadWorkflowFileResult } from "./workflow-file.reader.js";
export { runWorkflowFile, type WorkflowFileRun, type WorkflowFileRunResult } from "./workflow-file.runner.js";
