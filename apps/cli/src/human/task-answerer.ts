import { userInfo } from "node:os";
import { checkHumanAnswer, WeftError, type HumanTaskAnswer, type JsonValue, type RunEventOf } from "@weft/engine";
import type { FileAnswers } from "./answers-file.reader.js";

/** A task a run waits for, as its NODE_WAITING event describes it. */
export type OpenTask = RunEventOf<"NODE_WAITING">;

/** Answers a run's open task, or null when it cannot (the run then stays waiting). */
export type TaskAnswerer = (task: OpenTask) => Promise<HumanTaskAnswer | null>;

/** Who answers on this machine: the user's login name (`weft run` has no API keys). */
export function localUser(): string {
  try {
    return userInfo().username;
  } catch {
    return "cli";
  }
}

/** A closed task's answer, checked against the task like completeHumanTask checks it. */
export function checkedAnswer(task: OpenTask, given: { action: string; data?: JsonValue | null; comment?: string | null }, by: string): HumanTaskAnswer {
  const checked = checkHumanAnswer(task, { action: given.action, data: given.data ?? null });
  const issue = checked.issues[0];
  if (issue) throw new WeftError(issue.code, `task of "${task.nodeId}": ${issue.message}`, { details: { path: issue.path } });
  return { action: given.action, data: checked.data, comment: given.comment ?? null, by, completedAt: new Date().toISOString(), expired: false };
}

/** `--answers FILE`: the next answer for the task's node, refused (exit 2) when it does not fit the task. */
export function fileAnswerer(answers: FileAnswers, by: string): TaskAnswerer {
  return async (task) => {
    const given = answers.take(task.nodeId);
    return given ? checkedAnswer(task, given, by) : null;
  };
}

/** The first answerer that answers. */
export function firstAnswer(answerers: readonly TaskAnswerer[]): TaskAnswerer {
  return async (task) => {
    for (const answerer of answerers) {
      const answer = await answerer(task);
      if (answer) return answer;
    }
    return null;
  };
}
