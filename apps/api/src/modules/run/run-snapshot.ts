import type { RunSettings, Workflow } from "@weft/engine";

/**
 * What a run executes, frozen when it starts: the workflow (graph, prompts, settings) and the settings
 * resolved from the request. Stored as Run.snapshot so history stays true after later edits, and read
 * back by the worker, so the run never sees an edit made after it was accepted.
 */
export interface RunSnapshot {
  version: 1;
  workflow: Workflow;
  settings: RunSettings;
  options: { concurrency: number };
}

export function parseSnapshot(json: unknown): RunSnapshot {
  const snapshot = json as Partial<RunSnapshot> | null;
  if (!snapshot || snapshot.version !== 1 || !snapshot.workflow) {
    throw new Error("run snapshot is missing or has an unknown version");
  }
  return snapshot as RunSnapshot;
}
