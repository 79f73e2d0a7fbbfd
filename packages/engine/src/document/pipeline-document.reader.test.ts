import { describe, expect, it } from "vitest";
import { DEFAULT_OUTPUT_FORMAT, DEFAULT_PROMPTS } from "../model/defaults.js";
import { builtInRegistry } from "../node-types/built-in-node-types.js";
import { WORKFLOW_DOCUMENT_LIMITS } from "../model/workflow-document.limits.js";
import { parseWorkflowDocument, parseWorkflowValue } from "./workflow-document.parser.js";

/**
 * q ─► route ─[simple]──► answer ─────────────┐
 *        └──[default]──► draft ─► check ─[pass]─► out
 *                          ▲────[retry, loop regen]─┘
 */
function doc(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    format: "weft.workflow/v2",
    name: "Routed",
    state: { answers: { reducer: "append" } },
    limits: { maxInvocations: 500 },
    loops: [{ id: "regen", max: 3, exit: "pass" }],
    nodes: [
      { id: "q", type: "input", content: "hi", writes: "answers" },
      { id: "route", type: "switch", cases: [{ port: "simple", when: 'size(input) < 10' }] },
      { id: "answer", type: "llm", provider: "offline", model: "echo", prompt: "Answer {input}" },
      { id: "draft", type: "llm", provider: "offline", model: "echo", schema: { type: "object" } },
      { id: "check", type: "grade", provider: "offline", model: "scripted", threshold: 0.7 },
      { id: "out", type: "output" },
    ],
    edges: [
      { source: "q", target: "route" },
      { source: "route", sourcePort: "simple", target: "answer" },
      { source: "route", sourcePort: "default", target: "draft" },
      { source: "draft", target: "check" },
      { source: "check", sourcePort: "pass", target: "out" },
      { source: "check", sourcePort: "retry", target: "draft", loop: "regen" },
      { source: "answer", target: "out" },
    ],
    ...overrides,
  };
}

function issuesOf(value: unknown) {
  const result = parseWorkflowValue(value, { registry: builtInRegistry });
  if (result.ok) throw new Error("expected the document to be refused");
  return result.issues.map((issue) => [issue.code, issue.path, issue.message]);
}

const mapNode = (body: unknown, extra: Record<string, unknown> = {}) => ({ id: "each", type: "map", items: "input", body, ...extra });
const itemBody = (prefix = "b") => ({
  nodes: [
    { id: `${prefix}in`, type: "input" },
    { id: `${prefix}t`, type: "template", template: "{item}!" },
    { id: `${prefix}out`, type: "output" },
  ],
  edges: [
    { source: `${prefix}in`, target: `${prefix}t` },
    { source: `${prefix}t`, target: `${prefix}out` },
  ],
});

describe("reading a weft.workflow/v2 document", () => {
  it("gathers each node's type fields into config and keeps ports, loop edges, loops, state and limits", () => {
    const result = parseWorkflowDocument(JSON.stringify(doc()), { registry: builtInRegistry });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const { workflow } = result;
    expect(workflow.nodes.find((node) => node.id === "route")).toEqual({
      id: "route",
      type: "switch",
      config: { cases: [{ port: "simple", when: "size(input) < 10" }] },
    });
    expect(workflow.nodes[0]).toEqual({ id: "q", type: "input", content: "hi", config: { writes: "answers" } });
    expect(workflow.edges[5]).toEqual({ id: "e6", source: "check", sourcePort: "retry", target: "draft", loop: "regen" });
    expect(workflow.loops).toEqual([{ id: "regen", max: 3, exit: "pass" }]);
    expect(workflow.state).toEqual({ answers: { reducer: "append" } });
    expect(workflow.limits).toEqual({ maxInvocations: 500 });
  });

  it("fills prompts and the output format it leaves out with the defaults", () => {
    const result = parseWorkflowValue(doc(), { registry: builtInRegistry });
    expect(result.ok && [result.workflow.prompts, result.workflow.outputFormat]).toEqual([{ ...DEFAULT_PROMPTS }, DEFAULT_OUTPUT_FORMAT]);
  });

  it("refuses a field its node's type does not take, and a config value of the wrong shape, at their paths", () => {
    const value = doc();
    const nodes = value.nodes as Record<string, unknown>[];
    nodes[1] = { ...nodes[1], labels: ["a"] };
    nodes[4] = { ...nodes[4], threshold: 2 };
    expect(issuesOf(value)).toEqual([
      ["FIELD_UNKNOWN", "nodes[1].labels", 'switch nodes take no "labels"'],
      ["FIELD_INVALID", "nodes[4].threshold", "Too big: expected number to be <=1"],
    ]);
  });

  it("refuses a switch without cases and two cases on one port", () => {
    const empty = doc();
    (empty.nodes as Record<string, unknown>[])[1] = { id: "route", type: "switch", cases: [] };
    expect(issuesOf(empty)).toEqual([["FIELD_INVALID", "nodes[1].cases", "must hold at least one case"]]);
    const twice = doc();
    const when = "true";
    (twice.nodes as Record<string, unknown>[])[1] = { id: "route", type: "switch", cases: [{ port: "a", when }, { port: "a", when }] };
    expect(issuesOf(twice)).toEqual([["FIELD_INVALID", "nodes[1].cases", "each case needs its own port"]]);
  });

  it("reads a map body as a graph of its own, with paths into it", () => {
    const value = doc({ nodes: [{ id: "q", type: "input" }, mapNode(itemBody()), { id: "out", type: "output" }], edges: [], loops: [] });
    const result = parseWorkflowValue(value, { registry: builtInRegistry });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const body = result.workflow.nodes[1]!.config!.body as unknown as { nodes: unknown[]; edges: unknown[] };
    expect(body.nodes[1]).toEqual({ id: "bt", type: "template", config: { template: "{item}!" } });
    expect(body.edges[0]).toEqual({ id: "e1", source: "bin", target: "bt" });
    const broken = itemBody();
    broken.nodes[1] = { id: "bt", type: "templet", template: "x" };
    expect(issuesOf(doc({ nodes: [{ id: "q", type: "input" }, mapNode(broken)], edges: [], loops: [] }))[0]?.slice(0, 2)).toEqual([
      "UNKNOWN_NODE_TYPE",
      "nodes[1].body.nodes[1].type",
    ]);
  });

  it("refuses a node id used again inside a body, since events name nodes by id", () => {
    const value = doc({ nodes: [{ id: "bin", type: "input" }, mapNode(itemBody())], edges: [], loops: [] });
    expect(issuesOf(value)).toEqual([["DUPLICATE_NODE_ID", "nodes[1].body.nodes[0].id", 'node id "bin" is already used by nodes[0]']]);
  });

  it("counts body nodes against the node limit and limits how deep bodies nest", () => {
    const limits = { ...WORKFLOW_DOCUMENT_LIMITS, maxNodes: 4, maxBodyDepth: 1 };
    const value = doc({ nodes: [{ id: "q", type: "input" }, mapNode(itemBody()), { id: "out", type: "output" }], edges: [], loops: [] });
    const counted = parseWorkflowValue(value, { registry: builtInRegistry, limits });
    expect(!counted.ok && counted.issues[0]).toMatchObject({ code: "LIMIT_EXCEEDED", path: "nodes", message: expect.stringContaining("it holds 6") });
    const inner = { ...itemBody("c") };
    const outer = { nodes: [{ id: "bin", type: "input" }, mapNode(inner, { id: "inner" }), { id: "bout", type: "output" }], edges: [] };
    const deep = parseWorkflowValue(doc({ nodes: [mapNode(outer)], edges: [], loops: [] }), { registry: builtInRegistry, limits: { ...WORKFLOW_DOCUMENT_LIMITS, maxBodyDepth: 1 } });
    expect(!deep.ok && deep.issues.map((issue) => [issue.code, issue.path])).toEqual([["LIMIT_EXCEEDED", "nodes[0].body.nodes[1].body"]]);
  });

  it('refuses a "__proto__" key anywhere in the document', () => {
    const text = JSON.stringify(doc()).replace('"threshold":0.7', '"threshold":0.7,"__proto__":{"x":1}');
    const result = parseWorkflowDocument(text, { registry: builtInRegistry });
    expect(!result.ok && result.issues.map((issue) => [issue.code, issue.path])).toEqual([["FIELD_INVALID", "nodes[4].__proto__"]]);
  });

  it("refuses a loop id declared twice and a prompt keyed by a type that takes no workflow prompt", () => {
    expect(issuesOf(doc({ loops: [{ id: "regen", max: 3 }, { id: "regen", max: 2 }], prompts: { llm: "x" } }))).toEqual([
      ["DUPLICATE_LOOP_ID", "loops[1].id", 'loop id "regen" is already used by loops[0]'],
      ["FIELD_UNKNOWN", "prompts.llm", '"llm" is not a node type that takes the workflow\'s prompt; prompts are keyed by generation, ensemble, validation'],
    ]);
  });

  it("leaves a missing or out-of-range loop bound to the rule checker (LOOP_BOUND_INVALID)", () => {
    const result = parseWorkflowValue(doc({ loops: [{ id: "regen" }] }), { registry: builtInRegistry });
    expect(result.ok && result.workflow.loops).toEqual([{ id: "regen", exit: null }]);
  });

  it("refuses an llm schema that is not a JSON Schema object or that is nested too deep", () => {
    const bad = doc();
    (bad.nodes as Record<string, unknown>[])[3] = { id: "draft", type: "llm", schema: "object" };
    expect(issuesOf(bad)).toEqual([["FIELD_INVALID", "nodes[3].schema", "must be a JSON Schema (an object)"]]);
    let deep: Record<string, unknown> = { type: "string" };
    for (let k = 0; k < 20; k += 1) deep = { type: "object", properties: { a: deep } };
    const tooDeep = doc();
    (tooDeep.nodes as Record<string, unknown>[])[3] = { id: "draft", type: "llm", schema: deep };
    expect(issuesOf(tooDeep)[0]?.slice(0, 1)).toEqual(["LIMIT_EXCEEDED"]);
  });

  it("reads a v1 document with the seed types only, whatever the registry holds", () => {
    const v1 = { format: "weft.workflow/v1", name: "x", prompts: { ...DEFAULT_PROMPTS }, outputFormat: "", nodes: [{ id: "q", type: "llm" }], edges: [] };
    const result = parseWorkflowValue(v1, { registry: builtInRegistry });
    expect(!result.ok && result.issues[0]?.message).toBe('unknown node type "llm"; known types: input, generation, ensemble, validation, output');
  });

  it("accepts only the formats the caller allows", () => {
    const result = parseWorkflowValue(doc(), { registry: builtInRegistry, formats: ["weft.workflow/v1"] });
    expect(!result.ok && result.issues).toEqual([
      { code: "UNSUPPORTED_FORMAT", path: "format", message: 'format must be "weft.workflow/v1"; found "weft.workflow/v2"' },
    ]);
  });
});
