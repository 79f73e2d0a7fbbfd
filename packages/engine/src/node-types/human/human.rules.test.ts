import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../model/json-value.js";
import type { Workflow } from "../../model/workflow.js";
import { checkEdit } from "../../rules/edit-rules.js";
import { validateWorkflow } from "../../rules/validate-workflow.js";
import { parseWorkflowValue } from "../../document/workflow-document.parser.js";
import { pipeline } from "../../testing/pipeline-builder.js";
import { builtInRegistry } from "../built-in-node-types.js";
import { checkHumanAnswer } from "./human-answer.check.js";

const check = (workflow: Workflow) => validateWorkflow(workflow, { registry: builtInRegistry });

/**
 *  q ─► review (human) ─[ok]───► a ─► j ─► out
 *                     └─[no]───► b ─┘
 */
function reviewed(config: Record<string, JsonValue>, ports = ["ok", "no"]) {
  const [first, second] = ports;
  return pipeline()
    .input("q")
    .node("review", "human", { actions: [{ id: "ok" }, { id: "no" }], ...config })
    .node("a", "template", { template: "a" })
    .node("b", "template", { template: "b" })
    .node("j", "join")
    .output("out")
    .edges("q>review", `review.${first}>a`, `review.${second}>b`, "a>j", "b>j", "j>out")
    .build();
}

describe("the human node's rules (SPEC-V3 §2)", () => {
  it("accepts the default approve and reject actions when both ports are connected", () => {
    const workflow = pipeline()
      .input("q")
      .node("review", "human", { form: { type: "object", properties: { note: { type: "string" } } } })
      .node("a", "template", { template: "a" })
      .node("b", "template", { template: "b" })
      .node("j", "join")
      .output("out")
      .edges("q>review", "review.approve>a", "review.reject>b", "a>j", "b>j", "j>out")
      .build();
    expect(check(workflow)).toEqual([]);
  });

  it("refuses an action port without an edge, as for every router (BRANCH_UNCONNECTED)", () => {
    const workflow = reviewed({ actions: [{ id: "ok" }, { id: "no" }, { id: "later" }] });
    expect(check(workflow)).toEqual([
      expect.objectContaining({ code: "BRANCH_UNCONNECTED", nodeIds: ["review"], message: expect.stringContaining('port "later"') }),
    ]);
  });

  it("refuses a repeated action id with HUMAN_ACTION_DUPLICATE, naming the field", () => {
    const violations = check(reviewed({ actions: [{ id: "ok" }, { id: "no" }, { id: "ok", label: "OK again" }] }));
    expect(violations).toEqual([
      {
        code: "HUMAN_ACTION_DUPLICATE",
        message: 'actions[2].id of human node "review" repeats the action "ok": each action needs its own id',
        nodeIds: ["review"],
        edgeIds: [],
        field: "actions[2].id",
        position: 0,
      },
    ]);
  });

  it("refuses action ids that are not valid port names with HUMAN_ACTION_INVALID, with the field and the position", () => {
    const violations = check(reviewed({ actions: [{ id: "ok" }, { id: "no" }, { id: "" }, { id: "default" }, { id: "go on" }] }, ["ok", "no"]));
    const invalid = violations.filter((violation) => violation.code === "HUMAN_ACTION_INVALID");
    expect(invalid.map((violation) => [violation.field, violation.position])).toEqual([
      ["actions[2].id", 0],
      ["actions[3].id", 0],
      ["actions[4].id", 2],
    ]);
    expect(invalid[1]!.message).toContain('a reserved port name');
  });

  it("refuses an onTimeout that names no action", () => {
    expect(check(reviewed({ timeoutSeconds: 60, onTimeout: "maybe" }))).toEqual([
      expect.objectContaining({ code: "HUMAN_ACTION_INVALID", field: "onTimeout", message: 'onTimeout of human node "review" names "maybe", which is not one of the node\'s actions' }),
    ]);
    expect(check(reviewed({ timeoutSeconds: 60, onTimeout: "no" }))).toEqual([]);
    expect(check(reviewed({ timeoutSeconds: 60, onTimeout: null }))).toEqual([]);
  });

  it("refuses a form that is not a JSON Schema of an object with HUMAN_FORM_INVALID", () => {
    expect(check(reviewed({ form: { type: "string" } }))).toEqual([expect.objectContaining({ code: "HUMAN_FORM_INVALID", field: "form.type", nodeIds: ["review"] })]);
    expect(check(reviewed({ form: { type: "object", properties: { a: { type: "strnig" } } } }))).toEqual([
      expect.objectContaining({ code: "HUMAN_FORM_INVALID", field: "form.properties.a.type", position: 0 }),
    ]);
    expect(check(reviewed({ form: { type: "object", properties: { "the name": { minLength: -1 } } } }))).toEqual([
      expect.objectContaining({ code: "HUMAN_FORM_INVALID", field: 'form.properties["the name"].minLength' }),
    ]);
    expect(check(reviewed({ form: { type: "object", required: ["a"], properties: { a: { type: "string", pattern: "^a+$" } } } }))).toEqual([]);
    expect(check(reviewed({ form: { type: "object", properties: { a: { type: "string", pattern: "(?=a)a" } } } }))).toEqual([
      expect.objectContaining({ code: "PATTERN_INVALID", field: "form.properties.a.pattern" }),
    ]);
  });

  it("refuses the same problems when an edit would bring them, and only those", () => {
    const workflow = reviewed({});
    const node = { ...workflow.nodes[1]!, config: { actions: [{ id: "ok" }, { id: "no" }, { id: "ok" }] } };
    expect(checkEdit(workflow, { kind: "updateNode", nodeId: "review", node }, { registry: builtInRegistry }).map((violation) => violation.code)).toEqual([
      "HUMAN_ACTION_DUPLICATE",
    ]);
  });

  it("reads a human node from a weft.workflow/v2 document, and refuses a malformed field with its path", () => {
    const document = (review: Record<string, unknown>) => ({
      format: "weft.workflow/v2",
      name: "Review",
      nodes: [{ id: "q", type: "input" }, { id: "review", type: "human", ...review }, { id: "out", type: "output" }],
      edges: [{ source: "q", target: "review" }, { source: "review", sourcePort: "approve", target: "out" }],
    });
    const read = parseWorkflowValue(document({ title: "Check", timeoutSeconds: 30, onTimeout: "approve", assignee: "editors" }), { registry: builtInRegistry });
    expect(read.ok && read.workflow.nodes[1]!.config).toEqual({ title: "Check", timeoutSeconds: 30, onTimeout: "approve", assignee: "editors" });
    const refused = parseWorkflowValue(document({ timeoutSeconds: 0 }), { registry: builtInRegistry });
    expect(refused.ok ? [] : refused.issues.map((issue) => issue.path)).toEqual(["nodes[1].timeoutSeconds"]);
  });
});

describe("checking an answer to a task", () => {
  const task = { actions: [{ id: "approve" }, { id: "reject" }], form: { type: "object", properties: { score: { type: "integer", minimum: 1 } }, required: ["score"] }, editable: false, input: "draft" };

  it("accepts an offered action with data that fits the form", () => {
    expect(checkHumanAnswer(task, { action: "approve", data: { score: 3 } })).toEqual({ data: { score: 3 }, issues: [] });
  });

  it("refuses an action the task does not offer with HUMAN_ACTION_UNKNOWN", () => {
    expect(checkHumanAnswer(task, { action: "maybe", data: { score: 3 } }).issues).toEqual([
      { code: "HUMAN_ACTION_UNKNOWN", message: '"maybe" is not one of the task\'s actions ("approve", "reject")', path: null },
    ]);
  });

  it("refuses data that does not fit the form with HUMAN_INPUT_INVALID and the path", () => {
    expect(checkHumanAnswer(task, { action: "approve", data: { score: 0 } }).issues).toEqual([
      expect.objectContaining({ code: "HUMAN_INPUT_INVALID", path: "/score" }),
    ]);
    expect(checkHumanAnswer(task, { action: "approve" }).issues).toEqual([expect.objectContaining({ code: "HUMAN_INPUT_INVALID", path: "/" })]);
  });

  it("keeps the input of an editable task when no data is given", () => {
    expect(checkHumanAnswer({ ...task, form: null, editable: true }, { action: "approve" })).toEqual({ data: "draft", issues: [] });
  });
});
