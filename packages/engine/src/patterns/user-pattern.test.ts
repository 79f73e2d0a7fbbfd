import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseWorkflowValue } from "../document/workflow-document.parser.js";
import { compileExpression, evaluateExpression } from "../expression/cel-expression.js";
import { builtInRegistry } from "../node-types/built-in-node-types.js";
import { validateWorkflow } from "../rules/validate-workflow.js";
import { schemaMismatch } from "../schema/json-schema.check.js";
import { compileUserPattern, patternProblem } from "./user-pattern.js";

const REDOS = "^(a+)+$";
const HOSTILE_TEXT = `${"a".repeat(50_000)}!`;

describe("user patterns (RE2 syntax, linear time)", () => {
  it("matches what V8's RegExp would need years for, at once", () => {
    expect(compileUserPattern(REDOS).test(HOSTILE_TEXT)).toBe(false);
    expect(compileUserPattern("HELLO", { ignoreCase: true }).test("say hello")).toBe(true);
  });

  it("refuses what RE2 does not have (lookaround, backreferences) with PATTERN_INVALID", () => {
    expect(() => compileUserPattern("(?=x)")).toThrow(expect.objectContaining({ code: "PATTERN_INVALID" }));
    expect(patternProblem("(a)\\1")).toMatch(/RE2 syntax/);
    expect(patternProblem("질문: [^\\n]*(안녕|hi\\b)")).toBeNull();
  });

  it("serves JSON Schema pattern and patternProperties", () => {
    expect(schemaMismatch({ type: "string", pattern: REDOS }, HOSTILE_TEXT)).toMatch(/does not match pattern/);
    expect(schemaMismatch({ type: "object", patternProperties: { "^x": { type: "number" } } }, { xa: "no" })).not.toBeNull();
    expect(() => schemaMismatch({ type: "string", pattern: "(?<=a)b" }, "ab")).toThrow(expect.objectContaining({ code: "PATTERN_INVALID" }));
  });

  it("serves CEL matches()", () => {
    const compiled = compileExpression(`input.matches("${REDOS}")`);
    if (!compiled.ok) throw new Error(compiled.message);
    expect(evaluateExpression(compiled.evaluate, { input: HOSTILE_TEXT, inputs: {}, state: {}, loops: {}, run: { inputs: {} } }, "when")).toBe(false);
  });

  it("finds every pattern of a graph and reports the unsupported ones with their field", () => {
    const parsed = parseWorkflowValue(
      {
        format: "weft.workflow/v2",
        name: "patterns",
        nodes: [
          { id: "q", type: "input" },
          { id: "route", type: "switch", cases: [{ port: "yes", when: 'input.matches("(?!no)")' }] },
          { id: "ask", type: "llm", provider: "offline", model: "scripted", params: { replies: ["{}"], match: [{ pattern: "(x)\\1", replies: ["{}"] }] }, schema: { type: "object", properties: { a: { type: "string", pattern: "(?=a)" } }, patternProperties: { "(?<!b)": {} } } },
          { id: "out", type: "output" },
        ],
        edges: [
          { source: "q", target: "route" },
          { source: "route", sourcePort: "yes", target: "ask" },
          { source: "route", sourcePort: "default", target: "ask" },
          { source: "ask", target: "out" },
        ],
      },
      { registry: builtInRegistry },
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const found = validateWorkflow(parsed.workflow, { registry: builtInRegistry })
      .filter((violation) => violation.code === "PATTERN_INVALID")
      .map(({ nodeIds, field }) => `${nodeIds[0]} ${field}`)
      .sort();
    expect(found).toEqual(["ask params.match[0].pattern", 'ask schema.patternProperties["(?<!b)"]', "ask schema.properties.a.pattern", "route cases[0].when"]);
  });

  it("accepts every pattern of the shipped templates", () => {
    const examples = new URL("../../../../examples/", import.meta.url);
    const files = readdirSync(examples).filter((name) => name.endsWith(".json"));
    expect(files.length).toBeGreaterThan(4);
    for (const file of files) {
      const parsed = parseWorkflowValue(JSON.parse(readFileSync(new URL(file, examples), "utf8")), { registry: builtInRegistry });
      if (!parsed.ok) continue;
      const refused = validateWorkflow(parsed.workflow, { registry: builtInRegistry }).filter((violation) => violation.code === "PATTERN_INVALID");
      expect(refused, file).toEqual([]);
    }
  });
});
