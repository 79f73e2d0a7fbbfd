import { describe, expect, it } from "vitest";
import { createNewWorkflow } from "../model/defaults.js";
import type { Workflow } from "../model/workflow.js";
import { parseWorkflowDocument, parseWorkflowValue } from "./workflow-document.parser.js";
import { serializeWorkflow, stringifyWorkflow, usesOnlySeedFeatures } from "./workflow-document.serializer.js";
import { builtInRegistry } from "../node-types/built-in-node-types.js";

/**
 * q ─► each (map: bin ─► bt ─► bout) ─► check ─[pass]─► out
 *                                         └─[retry, loop again]─► each
 */
function pipelineWorkflow(): Workflow {
  return {
    ...createNewWorkflow("Per item"),
    state: { seen: { reducer: "appendUnique", key: "id", scope: "thread" } },
    limits: { maxInvocations: 800 },
    loops: [{ id: "again", max: 2, exit: null }],
    nodes: [
      { id: "q", type: "input", content: "[1, 2]", position: { x: 1, y: 2 } },
      {
        id: "each",
        type: "map",
        config: {
          items: "input",
          concurrency: 2,
          writes: "seen",
          body: {
            nodes: [
              { id: "bin", type: "input" },
              { id: "bt", type: "template", config: { template: '{"n": {item}}', json: true } },
              { id: "bout", type: "output" },
            ],
            edges: [
              { id: "b1", source: "bin", target: "bt" },
              { id: "b2", source: "bt", target: "bout" },
            ],
          },
        },
      },
      { id: "check", type: "grade", provider: "offline", model: "scripted", params: { replies: [] }, config: { threshold: 0.5 } },
      { id: "out", type: "output" },
    ],
    edges: [
      { id: "a", source: "q", target: "each" },
      { id: "b", source: "each", target: "check" },
      { id: "c", source: "check", sourcePort: "pass", target: "out" },
      { id: "d", source: "check", sourcePort: "retry", target: "each", loop: "again" },
    ],
  };
}

describe("serializing to weft.workflow/v2", () => {
  it("round-trips a workflow with a map body, loops, state and limits unchanged", () => {
    const workflow = pipelineWorkflow();
    expect(parseWorkflowDocument(stringifyWorkflow(workflow), { registry: builtInRegistry })).toEqual({ ok: true, workflow });
  });

  it("writes type fields flat on the nodes, bodies included", () => {
    const document = serializeWorkflow(pipelineWorkflow());
    expect(document.format).toBe("weft.workflow/v2");
    expect(document.nodes[1]).toMatchObject({ id: "each", type: "map", items: "input", concurrency: 2, writes: "seen" });
    expect((document.nodes[1] as unknown as { body: { nodes: unknown[] } }).body.nodes[1]).toEqual({
      id: "bt",
      type: "template",
      template: '{"n": {item}}',
      json: true,
    });
    expect(document.edges[3]).toEqual({ id: "d", source: "check", sourcePort: "retry", target: "each", loop: "again" });
  });

  it("writes v1 when a v2 document uses only v1 features", () => {
    const { nodes, edges, ...settings } = createNewWorkflow("Plain");
    const result = parseWorkflowValue(JSON.parse(JSON.stringify({ ...settings, format: "weft.workflow/v2", nodes, edges })), { registry: builtInRegistry });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(usesOnlySeedFeatures(result.workflow)).toBe(true);
    expect(serializeWorkflow(result.workflow).format).toBe("weft.workflow/v1");
  });

  it("writes v2 as soon as one v2 feature is used", () => {
    const plain = createNewWorkflow("Plain");
    const writes = { ...plain, nodes: plain.nodes.map((node, k) => (k === 0 ? { ...node, config: { writes: "question" } } : node)) };
    const port = { ...plain, edges: [{ ...plain.edges[0]!, sourcePort: "out" }] };
    for (const workflow of [writes, port, { ...plain, limits: {} }, { ...plain, loops: [] }]) {
      expect(serializeWorkflow(workflow).format).toBe("weft.workflow/v2");
    }
  });
});
