import { describe, expect, it } from "vitest";
import { createNewWorkflow, DEFAULT_PROMPTS } from "../model/defaults.js";
import { WORKFLOW_DOCUMENT_LIMITS } from "../model/workflow-document.limits.js";
import { parseWorkflowDocument, parseWorkflowValue, readWorkflowDocument } from "./workflow-document.parser.js";
import { builtInRegistry } from "../node-types/built-in-node-types.js";

/** A valid document: i1 ─► g1 ─► o1, with overrides merged on top. */
function doc(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    format: "weft.workflow/v1",
    name: "Summarize",
    prompts: { ...DEFAULT_PROMPTS },
    outputFormat: "JSON please",
    nodes: [
      { id: "i1", type: "input", content: "hello" },
      { id: "g1", type: "generation", provider: "offline", model: "echo" },
      { id: "o1", type: "output" },
    ],
    edges: [
      { source: "i1", target: "g1" },
      { source: "g1", target: "o1" },
    ],
    ...overrides,
  };
}

function issuesOf(value: unknown, limits = WORKFLOW_DOCUMENT_LIMITS) {
  const result = parseWorkflowValue(value, { registry: builtInRegistry, limits });
  if (result.ok) throw new Error("expected the document to be refused");
  return result.issues;
}

describe("parseWorkflowDocument", () => {
  it("reads a valid document into a workflow, numbering edges without ids e1, e2, …", () => {
    const result = parseWorkflowDocument(JSON.stringify(doc()), { registry: builtInRegistry });
    expect(result).toEqual({
      ok: true,
      workflow: {
        name: "Summarize",
        prompts: { ...DEFAULT_PROMPTS },
        outputFormat: "JSON please",
        knowledgeBase: null,
        intensity: null,
        nodes: [
          { id: "i1", type: "input", content: "hello" },
          { id: "g1", type: "generation", provider: "offline", model: "echo" },
          { id: "o1", type: "output" },
        ],
        edges: [
          { id: "e1", source: "i1", target: "g1" },
          { id: "e2", source: "g1", target: "o1" },
        ],
      },
    });
  });

  it("keeps explicit edge ids and skips them when numbering the others", () => {
    const value = doc({ edges: [{ source: "i1", target: "g1" }, { id: "e1", source: "g1", target: "o1" }] });
    const result = parseWorkflowValue(value, { registry: builtInRegistry });
    expect(result.ok && result.workflow.edges.map((e) => e.id)).toEqual(["e2", "e1"]);
  });

  it("does not check connection rules, which are validateWorkflow's job", () => {
    // i1 ─► o1 ─► g1   (OUTPUT_HAS_POST, but a well-formed document)
    const value = doc({ edges: [{ source: "i1", target: "o1" }, { source: "o1", target: "g1" }] });
    expect(parseWorkflowValue(value, { registry: builtInRegistry }).ok).toBe(true);
  });

  it("refuses text that is not JSON", () => {
    const result = parseWorkflowDocument('{"format": "weft.workflow/v1",', { registry: builtInRegistry });
    expect(result).toMatchObject({ ok: false, issues: [{ code: "DOCUMENT_NOT_JSON", path: "" }] });
  });

  it("refuses a document over the byte limit before parsing it, counting UTF-8 bytes", () => {
    const limits = { ...WORKFLOW_DOCUMENT_LIMITS, maxBytes: 100 };
    const text = JSON.stringify(doc({ name: "é".repeat(40) })).slice(0, 90); // 90 chars, >100 bytes
    expect(parseWorkflowDocument(text, { registry: builtInRegistry, limits })).toMatchObject({ ok: false, issues: [{ code: "DOCUMENT_TOO_LARGE" }] });
    expect(parseWorkflowDocument("x".repeat(90), { registry: builtInRegistry, limits })).toMatchObject({ ok: false, issues: [{ code: "DOCUMENT_NOT_JSON" }] });
  });

  it("refuses a value that is not an object, and a document of another format", () => {
    expect(issuesOf([1, 2])).toEqual([{ code: "FIELD_INVALID", path: "", message: "the document must be a JSON object" }]);
    expect(issuesOf(doc({ format: "weft.workflow/v3" }))).toEqual([
      { code: "UNSUPPORTED_FORMAT", path: "format", message: 'format must be "weft.workflow/v1" or "weft.workflow/v2"; found "weft.workflow/v3"' },
    ]);
  });

  it("refuses an unknown node type at its path", () => {
    const value = doc();
    (value.nodes as Record<string, unknown>[]).push({ id: "r1", type: "router" });
    expect(issuesOf(value)).toEqual([
      { code: "UNKNOWN_NODE_TYPE", path: "nodes[3].type", message: 'unknown node type "router"; known types: input, generation, ensemble, validation, output' },
    ]);
  });

  it("refuses a duplicate node id, pointing at the second one", () => {
    const value = doc();
    (value.nodes as Record<string, unknown>[]).push({ id: "g1", type: "ensemble" });
    expect(issuesOf(value)).toEqual([{ code: "DUPLICATE_NODE_ID", path: "nodes[3].id", message: 'node id "g1" is already used by nodes[1]' }]);
  });

  it("refuses an edge to a missing node and a duplicate edge id", () => {
    const value = doc({ edges: [{ id: "a", source: "i1", target: "g1" }, { id: "a", source: "g1", target: "zz" }] });
    expect(issuesOf(value)).toEqual([
      { code: "EDGE_NODE_MISSING", path: "edges[1].target", message: 'no node has id "zz"' },
      { code: "DUPLICATE_EDGE_ID", path: "edges[1].id", message: 'edge id "a" is already used by edges[0]' },
    ]);
  });

  it("refuses wrong field types, each at its path", () => {
    const value = doc({ name: 42, intensity: "EXTREME" });
    (value.nodes as Record<string, unknown>[])[1] = { id: "g1", type: "generation", position: { x: "left", y: 0 } };
    const issues = issuesOf(value);
    expect(issues.map((issue) => [issue.code, issue.path])).toEqual([
      ["FIELD_INVALID", "name"],
      ["FIELD_INVALID", "intensity"],
      ["FIELD_INVALID", "nodes[1].position.x"],
    ]);
    expect(issues[0]?.message).toMatch(/expected string/);
  });

  it("refuses unknown fields and attributes that do not suit the node's type", () => {
    const value = doc({ colour: "red" });
    (value.nodes as Record<string, unknown>[])[0] = { id: "i1", type: "input", model: "echo" };
    (value.nodes as Record<string, unknown>[])[1] = { id: "g1", type: "generation", content: "x", temprature: 1 };
    expect(issuesOf(value).map((issue) => [issue.code, issue.path])).toEqual([
      ["FIELD_UNKNOWN", "nodes[1].temprature"],
      ["FIELD_UNKNOWN", "colour"],
    ]);
    delete value.colour;
    (value.nodes as Record<string, unknown>[])[1] = { id: "g1", type: "generation", content: "x" };
    expect(issuesOf(value)).toEqual([
      { code: "FIELD_UNKNOWN", path: "nodes[0].model", message: 'input nodes take no "model"' },
      { code: "FIELD_UNKNOWN", path: "nodes[1].content", message: 'generation nodes take no "content"' },
    ]);
  });

  it("refuses a missing prompt for a model type and a prompt for something else", () => {
    const value = doc({ prompts: { generation: "a", ensemble: "b", review: "c" } });
    expect(issuesOf(value)).toEqual([
      { code: "PROMPT_MISSING", path: "prompts.validation", message: "the prompt for validation nodes is missing" },
      { code: "FIELD_UNKNOWN", path: "prompts.review", message: '"review" is not a model node type; prompts are keyed by generation, ensemble, validation' },
    ]);
  });

  describe("limits", () => {
    const small = { ...WORKFLOW_DOCUMENT_LIMITS, maxNodes: 2, maxEdges: 1, maxIdLength: 10, maxContentLength: 3 };

    it("refuses too many nodes or edges before looking at them", () => {
      expect(issuesOf(doc(), small)).toEqual([{ code: "LIMIT_EXCEEDED", path: "nodes", message: "must hold at most 2 nodes; it holds 3" }]);
      const twoNodes = doc({ nodes: [{ id: "i1", type: "input" }, { id: "o1", type: "output" }] });
      expect(issuesOf(twoNodes, small)).toEqual([{ code: "LIMIT_EXCEEDED", path: "edges", message: "must hold at most 1 edges; it holds 2" }]);
    });

    it("refuses an over-long id and over-long content at their paths", () => {
      const value = doc({ nodes: [{ id: "input-node-1", type: "input", content: "hello" }, { id: "o1", type: "output" }], edges: [] });
      expect(issuesOf(value, small)).toEqual([
        { code: "LIMIT_EXCEEDED", path: "nodes[0].id", message: "must be at most 10 characters" },
        { code: "LIMIT_EXCEEDED", path: "nodes[0].content", message: "must be at most 3 characters" },
      ]);
    });

    it("refuses params nested too deep, too many values, or long strings", () => {
      const withParams = (params: unknown) => doc({
        nodes: [{ id: "i1", type: "input" }, { id: "g1", type: "generation", params }, { id: "o1", type: "output" }],
      });
      expect(issuesOf(withParams({ a: { b: { c: { d: { e: { f: 1 } } } } } }))).toEqual([
        { code: "LIMIT_EXCEEDED", path: "nodes[1].params.a.b.c.d.e", message: "is nested deeper than 4 levels" },
      ]);
      const many = Object.fromEntries(Array.from({ length: 65 }, (_, k) => [`k${k}`, k]));
      expect(issuesOf(withParams(many))).toEqual([
        { code: "LIMIT_EXCEEDED", path: "nodes[1].params", message: "must hold at most 64 values in all" },
      ]);
      expect(issuesOf(withParams({ stop: ["x".repeat(10_001)] }))).toEqual([
        { code: "LIMIT_EXCEEDED", path: "nodes[1].params.stop[0]", message: "must be at most 10000 characters" },
      ]);
      expect(parseWorkflowValue(withParams({ temperature: 0.2, stop: ["\n"], extra: { a: { b: { c: { d: 1 } } } } }), { registry: builtInRegistry }).ok).toBe(true);
    });

    it("refuses a __proto__ key anywhere in params instead of dropping it", () => {
      const withParams = (params: unknown) => doc({
        nodes: [{ id: "i1", type: "input" }, { id: "g1", type: "generation", params }, { id: "o1", type: "output" }],
      });
      const top = issuesOf(withParams(JSON.parse('{"__proto__": {"polluted": true}}')));
      expect(top.map((issue) => [issue.code, issue.path])).toEqual([["FIELD_INVALID", "nodes[1].params.__proto__"]]);
      const nested = issuesOf(withParams(JSON.parse('{"a": {"__proto__": {"polluted": true}}}')));
      expect(nested.map((issue) => [issue.code, issue.path])).toEqual([["FIELD_INVALID", "nodes[1].params.a.__proto__"]]);
      const prompts = issuesOf(doc({ prompts: JSON.parse('{"generation": "a", "ensemble": "b", "validation": "c", "__proto__": "d"}') }));
      expect(prompts.map((issue) => [issue.code, issue.path])).toEqual([["FIELD_INVALID", "prompts.__proto__"]]);
    });
  });

  it("throws a WorkflowDocumentError with every issue from readWorkflowDocument", () => {
    const text = JSON.stringify(doc({ name: "", edges: [{ source: "x", target: "y" }] }));
    expect(() => readWorkflowDocument(text, { registry: builtInRegistry })).toThrow(
      expect.objectContaining({ code: "WORKFLOW_DOCUMENT_INVALID", message: "invalid workflow document: name: must contain a visible character (blank, format and invisible code points alone are blank)" }),
    );
    expect(readWorkflowDocument(JSON.stringify(createNewWorkflowDocument()), { registry: builtInRegistry }).name).toBe("Untitled");
    expect(() => readWorkflowDocument(JSON.stringify(doc({ name: " \t\n " })), { registry: builtInRegistry })).toThrow(/name: must contain a visible character/);
    // Format and blank code points alone are blank too (U+200B, U+2800, U+3164, U+00AD).
    for (const name of ["\u200B", "\u2800", "\u3164", "\u00AD"]) {
      expect(() => readWorkflowDocument(JSON.stringify(doc({ name })), { registry: builtInRegistry })).toThrow(/name: must contain a visible character/);
    }
  });
});

function createNewWorkflowDocument() {
  const { nodes, edges, ...rest } = createNewWorkflow("Untitled");
  return { format: "weft.workflow/v1", ...rest, knowledgeBase: null, intensity: null, nodes, edges };
}
