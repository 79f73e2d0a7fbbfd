import type { PromptSet, Workflow } from "./workflow.js";

/**
 * What a new workflow starts with. Placeholders `{input_data}`, `{context}` and `{output_format}` are
 * filled by the executor in one pass (SPEC §4).
 */

export const DEFAULT_OUTPUT_FORMAT =
  'Reply with one JSON object and nothing else: {"description": "<one sentence on what you did>", "output": "<your result>"}';

export const DEFAULT_PROMPTS: Readonly<PromptSet> = Object.freeze({
  generation: [
    "You are one step of a larger workflow. Complete the task described by the input.",
    "",
    "Input:",
    "{input_data}",
    "",
    "Reference material (may be empty):",
    "{context}",
    "",
    "{output_format}",
  ].join("\n"),
  ensemble: [
    "You receive several candidate answers, separated by blank lines. Combine them into one answer",
    "that keeps what they agree on and resolves their differences.",
    "",
    "Candidates:",
    "{input_data}",
    "",
    "Reference material (may be empty):",
    "{context}",
    "",
    "{output_format}",
  ].join("\n"),
  validation: [
    "Check the answer below for factual errors, unsupported claims and gaps, and return a corrected",
    "answer. Keep whatever is already right.",
    "",
    "Answer to check:",
    "{input_data}",
    "",
    "Reference material (may be empty):",
    "{context}",
    "",
    "{output_format}",
  ].join("\n"),
});

export const NEW_WORKFLOW_INPUT_ID = "input-1";
export const NEW_WORKFLOW_OUTPUT_ID = "output-1";

/** A new workflow: one input node connected to one output node (SPEC §3), default prompts. */
export function createNewWorkflow(name: string): Workflow {
  return {
    name,
    prompts: { ...DEFAULT_PROMPTS },
    outputFormat: DEFAULT_OUTPUT_FORMAT,
    knowledgeBase: null,
    intensity: null,
    nodes: [
      { id: NEW_WORKFLOW_INPUT_ID, type: "input", content: "", position: { x: 0, y: 0 } },
      { id: NEW_WORKFLOW_OUTPUT_ID, type: "output", content: "", position: { x: 400, y: 0 } },
    ],
    edges: [{ id: "e1", source: NEW_WORKFLOW_INPUT_ID, target: NEW_WORKFLOW_OUTPUT_ID }],
  };
}
