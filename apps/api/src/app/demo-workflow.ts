import { builtInRegistry, createNewWorkflow, OFFLINE_PROVIDER_ID, validateWorkflow, type Workflow } from "@weft/engine";

export const DEMO_WORKFLOW_NAME = "Demo: draft, check and merge (offline)";

/**
 * The workflow a fresh installation starts with. Every model node uses the offline `echo` test model
 * (no key, no network; it is not a language model), with a short delay so a run can be watched:
 *
 *   question ──▶ draft (generation) ──▶ check (validation) ──▶ merge (ensemble) ──▶ answer (output)
 *   notes ─────────────────────────────────────────────────────▲
 */
export function demoWorkflow(): Workflow {
  const base = createNewWorkflow(DEMO_WORKFLOW_NAME);
  const model = (id: string, type: string, x: number, y: number) => ({
    id,
    type,
    provider: OFFLINE_PROVIDER_ID,
    model: "echo",
    params: { delayMs: 400 },
    position: { x, y },
  });
  const workflow: Workflow = {
    ...base,
    nodes: [
      { id: "question", type: "input", content: "What does a Weft workflow do?", position: { x: 0, y: 0 } },
      { id: "notes", type: "input", content: "Notes: nodes run as soon as their inputs are ready.", position: { x: 0, y: 220 } },
      model("draft", "generation", 280, 0),
      model("check", "validation", 560, 0),
      model("merge", "ensemble", 840, 110),
      { id: "answer", type: "output", content: "", position: { x: 1120, y: 110 } },
    ],
    edges: [
      { id: "e1", source: "question", target: "draft" },
      { id: "e2", source: "draft", target: "check" },
      { id: "e3", source: "check", target: "merge" },
      { id: "e4", source: "notes", target: "merge" },
      { id: "e5", source: "merge", target: "answer" },
    ],
  };
  const violations = validateWorkflow(workflow, { registry: builtInRegistry });
  if (violations.length > 0) throw new Error(`the demo workflow breaks a rule: ${violations[0]!.message}`);
  return workflow;
}
