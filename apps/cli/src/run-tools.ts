import { builtInRegistry, threadQuestion, threadStateOf, type JsonValue, type PreparedRun, type RunOutcome, type ToolProviders, type Workflow } from "@weft/engine";
import { InMemoryThread } from "@weft/providers";
import type { ConfiguredProviders } from "./configured-providers.js";
import type { CliEnv } from "./env.js";
import { FolderKnowledgeBases } from "./folder-knowledge-bases.js";
import { openThreadFile, type OpenThreadFile } from "./thread-file.js";
import { UsageError } from "./usage.js";

/** What `weft run` hands the tool nodes besides the configured providers: knowledge bases and a thread. */
export interface RunTools {
  tools: ToolProviders;
  /** The thread channels' values to start with (from the thread file). */
  state: Record<string, JsonValue>;
  /** After the run: a completed run's turn is recorded and the thread file saved. */
  finish(prepared: PreparedRun, outcome: RunOutcome, runId: string): Promise<void>;
  release(): Promise<void>;
}

export interface RunToolOptions {
  workflowFile: string;
  workflow: Workflow;
  /** `--knowledge-base NAME=DIR`, any number. */
  knowledgeBases: readonly string[];
  /** `--thread FILE`. */
  threadFile: string | undefined;
}

export async function configureRunTools(configured: ConfiguredProviders, env: CliEnv, options: RunToolOptions): Promise<RunTools> {
  const knowledgeBases = new FolderKnowledgeBases({ workflowFile: options.workflowFile, folders: parseFolders(options.knowledgeBases), embedder: configured.embedder });
  const file: OpenThreadFile | null =
    options.threadFile === undefined ? null : await openThreadFile(options.threadFile, { maxMessages: env.WEFT_THREAD_MAX_MESSAGES || null, maxAgeSeconds: env.WEFT_THREAD_MAX_AGE_DAYS * 86_400 || null });
  // Without --thread the run still has a thread — an empty one that lasts as long as the command.
  const thread = file?.thread ?? new InMemoryThread();
  return {
    tools: {
      ...configured.tools,
      knowledgeBases,
      thread,
      // Cache entries live in memory for this command; the file stands for the workflow version.
      workflowVersion: { workflowId: `file:${options.workflowFile}`, version: 0 },
    },
    state: threadStateOf(thread.state, options.workflow),
    async finish(prepared, outcome, runId) {
      if (!file || outcome.status !== "COMPLETED") return;
      const question = threadQuestion(prepared, builtInRegistry);
      thread.recordTurn({ runId, question, answer: outcome.result ?? "", state: threadStateOf(outcome.state, options.workflow) });
      await file.save();
    },
    release: async () => file?.release(),
  };
}

/** `NAME=DIR` pairs; a name given twice is a usage error. */
function parseFolders(pairs: readonly string[]): Map<string, string> {
  const folders = new Map<string, string>();
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0 || at === pair.length - 1) throw new UsageError(`--knowledge-base takes NAME=DIR, got "${pair}"`);
    const name = pair.slice(0, at);
    if (folders.has(name)) throw new UsageError(`--knowledge-base names "${name}" twice`);
    folders.set(name, pair.slice(at + 1));
  }
  return folders;
}
