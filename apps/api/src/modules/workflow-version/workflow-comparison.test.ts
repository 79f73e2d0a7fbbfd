import { describe, expect, it } from "vitest";
import { compareWorkflowDocuments } from "./workflow-comparison.js";
import { contentHash } from "./workflow-content-hash.js";

/**
 * version 1:  in ──e1──▶ draft ──e2──▶ out
 */
function version1(): Record<string, unknown> {
  return {
    format: "weft.workflow/v1",
    name: "Review",
    prompts: { generation: "Answer {input_data}", ensemble: "Combine {input_data}", validation: "Check {input_data}" },
    outputFormat: "json",
    intensity: "LOW",
    nodes: [
      { id: "in", type: "input", content: "hello", position: { x: 0, y: 0 } },
      { id: "draft", type: "generation", provider: "offline", model: "echo", params: { temperature: 0.2 }, position: { x: 200, y: 0 } },
      { id: "out", type: "output", position: { x: 400, y: 0 } },
    ],
    edges: [
      { id: "e1", source: "in", target: "draft" },
      { id: "e2", source: "draft", target: "out" },
    ],
  };
}

describe("comparing two workflow documents", () => {
  it("finds nothing between a document and itself, whatever the order of its fields", () => {
    const reordered = Object.fromEntries(Object.entries(version1()).reverse());
    expect(compareWorkflowDocuments(version1(), reordered)).toEqual({
      nodes: { added: [], removed: [], changed: [] },
      edges: { added: [], removed: [], changed: [] },
      settings: { added: [], removed: [], changed: [] },
      identical: true,
    });
    expect(contentHash(reordered)).toBe(contentHash(version1()));
  });

  it("names the nodes and edges added and removed, and each changed field with its old and new value", () => {
    // draft:      in ──e1──▶ draft ──e3──▶ check ──e4──▶ out      (e2 removed, check added, draft re-tuned)
    const draft = version1();
    const nodes = draft["nodes"] as Record<string, unknown>[];
    nodes[1] = { id: "draft", type: "generation", provider: "offline", model: "flaky", params: { temperature: 0.7, maxTokens: 50 }, position: { x: 200, y: 0 } };
    nodes.splice(2, 0, { id: "check", type: "validation", provider: "offline", model: "echo" });
    draft["edges"] = [
      { id: "e1", source: "in", target: "draft" },
      { id: "e3", source: "draft", target: "check" },
      { id: "e4", source: "check", target: "out" },
    ];
    const diff = compareWorkflowDocuments(version1(), draft);
    expect(diff.identical).toBe(false);
    expect(diff.nodes).toEqual({
      added: ["check"],
      removed: [],
      changed: [
        {
          id: "draft",
          fields: [
            { field: "model", from: "echo", to: "flaky" },
            { field: "params.temperature", from: 0.2, to: 0.7 },
            { field: "params.maxTokens", from: null, to: 50 },
          ],
        },
      ],
    });
    expect(diff.edges).toEqual({ added: ["e3", "e4"], removed: ["e2"], changed: [] });
    expect(diff.settings).toEqual({ added: [], removed: [], changed: [] });
    expect(contentHash(draft)).not.toBe(contentHash(version1()));
  });

  it("reports an edge whose ends moved under the same id as changed", () => {
    const draft = version1();
    draft["edges"] = [
      { id: "e1", source: "in", target: "out" },
      { id: "e2", source: "draft", target: "out" },
    ];
    expect(compareWorkflowDocuments(version1(), draft).edges.changed).toEqual([{ id: "e1", fields: [{ field: "target", from: "draft", to: "out" }] }]);
  });

  it("treats every other document field as a setting, objects one level down", () => {
    const draft = version1();
    draft["prompts"] = { ...(draft["prompts"] as object), generation: "Answer briefly {input_data}" };
    draft["knowledgeBase"] = "handbook";
    delete draft["intensity"];
    draft["name"] = "Review (new)";
    expect(compareWorkflowDocuments(version1(), draft).settings).toEqual({
      added: [{ field: "knowledgeBase", from: null, to: "handbook" }],
      removed: [{ field: "intensity", from: "LOW", to: null }],
      changed: [
        { field: "name", from: "Review", to: "Review (new)" },
        { field: "prompts.generation", from: "Answer {input_data}", to: "Answer briefly {input_data}" },
      ],
    });
  });

  it("compares fields of node types and settings it does not know by name, so new ones need no change", () => {
    // v1:  q ──▶ route ─[simple]─▶ out        v2: the switch's cases, a loop edge's port and the state change
    const from = {
      format: "weft.workflow/v2",
      name: "Routed",
      state: { answers: { reducer: "append" } },
      limits: { maxInvocations: 500 },
      nodes: [
        { id: "q", type: "input" },
        { id: "route", type: "switch", cases: [{ port: "simple", when: "size(input) < 10" }] },
        { id: "out", type: "output" },
      ],
      edges: [
        { id: "e1", source: "q", target: "route" },
        { id: "e2", source: "route", sourcePort: "simple", target: "out" },
      ],
    };
    const to = {
      ...from,
      state: { answers: { reducer: "appendUnique", key: "id" } },
      limits: { maxInvocations: 800 },
      nodes: [from.nodes[0], { id: "route", type: "switch", cases: [{ port: "simple", when: "size(input) < 20" }], mode: "all" }, from.nodes[2]],
      edges: [from.edges[0], { id: "e2", source: "route", sourcePort: "default", target: "out" }],
    };
    const diff = compareWorkflowDocuments(from, to);
    expect(diff.nodes.changed).toEqual([
      {
        id: "route",
        fields: [
          { field: "cases", from: [{ port: "simple", when: "size(input) < 10" }], to: [{ port: "simple", when: "size(input) < 20" }] },
          { field: "mode", from: null, to: "all" },
        ],
      },
    ]);
    expect(diff.edges.changed).toEqual([{ id: "e2", fields: [{ field: "sourcePort", from: "simple", to: "default" }] }]);
    expect(diff.settings.changed).toEqual([
      { field: "state.answers", from: { reducer: "append" }, to: { reducer: "appendUnique", key: "id" } },
      { field: "limits.maxInvocations", from: 500, to: 800 },
    ]);
  });
});
