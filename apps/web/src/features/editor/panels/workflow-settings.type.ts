import type { Intensity } from "./panel-options.type";

/** The workflow-level settings the panel edits and the run request carries. */
export interface WorkflowSettingsDraft {
  name: string;
  description: string;
  prompts: Record<string, string>;
  outputFormat: string;
  knowledgeBase: string | null;
  intensity: Intensity;
}

export function sameSettings(a: WorkflowSettingsDraft, b: WorkflowSettingsDraft): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
