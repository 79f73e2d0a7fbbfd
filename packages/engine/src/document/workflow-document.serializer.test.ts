import { describe, expect, it } from "vitest";
import { createNewWorkflow } from "../model/defaults.js";
import type { Workflow } from "../model/workflow.js";
import { parseWorkflowDocument } from "./workflow-document.parser.js";
import { serializeWorkflow, stringifyWorkflow } from "./workflow-document.serializer.js";
import { builtInRegistry } from "../node-types/built-in-node-types.js";

/**
 * i1 ─► g1 ─► e1 ─► v1 ─► o1
 * i2 ────────┘
 */
function richWorkflow(): Workflow {
  return {
    ...createNewWorkflow("Fan-in"),
    knowledgeBase: "handbook",
    intensity: "HIGH",
    nodes: [
      { id: "i1", type: "input", content: "question ü 🧵", position: { x: 0, y: 0 } },
      { id: "i2", type: "input", content: "" },
      { id: "g1", type: "generation", provider: "offline", model: "echo", params: { temperature: 0.3, stop: ["\n\n"], nested: { a: null } } },
      { id: "e1", type: "ensemble", provider: "mistral", model: "mistral-small-latest", prompt: "Merge {input_data}" },
      { id: "v1", type: "validation", provider: "offline", model: "echo", position: { x: 600.5, y: -20 } },
      { id: "o1", type: "output" },
    ],
    edges: [
      { id: "a", source: "i1", target: "g1" },
      { id: "b", source: "g1", target: "e1" },
      { id: "c", source: "i2", target: "e1" },
      { id: "d", source: "e1", target: "v1" },
      { id: "f", source: "v1", target: "o1" },
    ],
  };
}

describe("serializeWorkflow", () => {
  it("round-trips a workflow through its document unchanged", () => {
    const workflow = richWorkflow();
    expect(parseWorkflowDocument(stringifyWorkflow(workflow), { registry: builtInRegistry })).toEqual({ ok: true, workflow });
  });

  it("round-trips a new workflow, whose null settings are left out of the document", () => {
    const workflow = createNewWorkflow("Untitled");
    const document = serializeWorkflow(workflow);
    expect("knowledgeBase" in document || "intensity" in document).toBe(false);
    expect(parseWorkflowDocument(stringifyWorkflow(workflow), { registry: builtInRegistry })).toEqual({ ok: true, workflow });
  });

  it("writes the format tag first and every edge id", () => {
    const text = stringifyWorkflow(richWorkflow());
    expect(Object.keys(JSON.parse(text))).toEqual(["format", "name", "prompts", "outputFormat", "knowledgeBase", "intensity", "nodes", "edges"]);
    expect(serializeWorkflow(richWorkflow()).edges.map((edge) => edge.id)).toEqual(["a", "b", "c", "d", "f"]);
    expect(text.endsWith("}\n")).toBe(true);
  });
});
