import type { HumanAction } from "../../model/human-task.js";
import type { JsonValue } from "../../model/json-value.js";
import { schemaErrors } from "../../schema/json-schema.check.js";

/** Why an answer to a task is refused (SPEC-V3 §2); `path` is the JSON Pointer of the data that does not fit. */
export interface HumanAnswerIssue {
  code: "HUMAN_ACTION_UNKNOWN" | "HUMAN_INPUT_INVALID";
  message: string;
  path: string | null;
}

/** What the task asked, as far as an answer is concerned. */
export interface AnsweredTask {
  actions: readonly HumanAction[];
  form: JsonValue | null;
  editable: boolean;
  input: JsonValue;
}

/**
 * Checks an answer before it closes a task, and gives the data the node will receive: the action must
 * be one the task offers; the data (absent: the input of an editable task, else an empty object when
 * there is a form, else null) must match the form. Every problem at once; empty when it fits.
 */
export function checkHumanAnswer(task: AnsweredTask, answer: { action: string; data?: JsonValue | null }): { data: JsonValue; issues: HumanAnswerIssue[] } {
  const issues: HumanAnswerIssue[] = [];
  if (!task.actions.some((action) => action.id === answer.action)) {
    const offered = task.actions.map((action) => `"${action.id}"`).join(", ");
    issues.push({ code: "HUMAN_ACTION_UNKNOWN", message: `"${answer.action}" is not one of the task's actions (${offered})`, path: null });
  }
  const given = answer.data ?? null;
  const data = given !== null ? given : task.editable ? task.input : task.form !== null ? {} : null;
  if (task.form !== null) {
    for (const error of schemaErrors(task.form, data)) issues.push({ code: "HUMAN_INPUT_INVALID", message: `at ${error.path}: ${error.message}`, path: error.path });
  }
  return { data, issues };
}
