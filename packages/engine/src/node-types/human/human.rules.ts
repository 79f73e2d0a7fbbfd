import { isJsonObject, type JsonValue } from "../../model/json-value.js";
import type { WorkflowNode } from "../../model/workflow.js";
import type { NodeConfigIssue } from "../../registry/node-type-definition.js";
import { formatPath } from "../../document/document-issue.js";
import { schemaDefinitionErrors } from "../../schema/json-schema.check.js";
import { humanActions } from "./human.config.js";

/** Ports every node has or every router falls back to: an action cannot take their names. */
const RESERVED_PORTS = new Set(["out", "default"]);

/** Control characters and blanks cannot name a port: an edge naming it could not be told apart. */
// eslint-disable-next-line no-control-regex -- the control characters are what is looked for
const UNFIT_CHARACTER = /[\u0000-\u001f\u007f\s]/u;

/**
 * A `human` node's rules beyond its schema (SPEC-V3 §2): each action id is a valid port name
 * (HUMAN_ACTION_INVALID) and differs from the others (HUMAN_ACTION_DUPLICATE); `onTimeout` names one of
 * them (HUMAN_ACTION_INVALID); `form` is a usable JSON Schema of an object (HUMAN_FORM_INVALID). That
 * every action's port has an edge is the routers' BRANCH_UNCONNECTED.
 */
export function humanConfigRules(node: WorkflowNode): NodeConfigIssue[] {
  const issues: NodeConfigIssue[] = [];
  const seen = new Set<string>();
  humanActions(node).forEach((action, k) => {
    const field = `actions[${k}].id`;
    const unfit = portNameProblem(action.id);
    if (unfit) issues.push({ code: "HUMAN_ACTION_INVALID", field, ...unfit });
    else if (seen.has(action.id)) issues.push({ code: "HUMAN_ACTION_DUPLICATE", field, message: `repeats the action "${action.id}": each action needs its own id`, position: 0 });
    seen.add(action.id);
  });
  const onTimeout = node.config?.["onTimeout"];
  if (typeof onTimeout === "string" && !seen.has(onTimeout)) {
    issues.push({ code: "HUMAN_ACTION_INVALID", field: "onTimeout", message: `names "${onTimeout}", which is not one of the node's actions`, position: 0 });
  }
  const form = node.config?.["form"];
  if (form !== undefined) {
    const problem = formProblem(form);
    if (problem) issues.push({ code: "HUMAN_FORM_INVALID", field: problem.field, message: problem.message, position: 0 });
  }
  return issues;
}

function portNameProblem(id: string): { message: string; position: number } | null {
  if (id === "") return { message: "must not be empty", position: 0 };
  if (RESERVED_PORTS.has(id)) return { message: `is "${id}", a reserved port name`, position: 0 };
  const unfit = UNFIT_CHARACTER.exec(id);
  if (unfit) return { message: "must not hold spaces or control characters (it names an output port)", position: unfit.index };
  return null;
}

/** The form must be a JSON Schema whose `type` is object; the field names the part of it that is wrong. */
function formProblem(form: JsonValue): { field: string; message: string } | null {
  if (!isJsonObject(form)) return { field: "form", message: "must be a JSON Schema object" };
  if (form["type"] !== "object") return { field: "form.type", message: 'must be "object": the form describes the data a person submits as one object' };
  const [first] = schemaDefinitionErrors(form);
  if (!first) return null;
  const segments = first.path.split("/").slice(1).map((part) => (/^\d+$/.test(part) ? Number(part) : part.replaceAll("~1", "/").replaceAll("~0", "~")));
  return { field: formatPath(["form", ...segments]), message: `is not a valid JSON Schema: ${first.message}` };
}
