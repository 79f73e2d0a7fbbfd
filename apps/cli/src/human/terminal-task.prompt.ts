import { createInterface } from "node:readline/promises";
import type { Readable, Writable } from "node:stream";
import { jsonText, WeftError, type HumanTaskAnswer, type JsonValue } from "@weft/engine";
import { checkedAnswer, type OpenTask, type TaskAnswerer } from "./task-answerer.js";

/**
 * Asks on the terminal: shows the task (title, instructions, the input, the actions) on `output` and
 * reads the action, the data when there is a form or the task is editable, and a comment. An answer
 * that does not fit the task is explained and asked again. A task with a timeout expires while it is
 * asked (the node then takes its onTimeout action); the run's signal (Ctrl-C) stops the question.
 */
export function terminalAnswerer(input: Readable & { isTTY?: boolean }, output: Writable, by: string, signal: AbortSignal): TaskAnswerer {
  return async (task) => {
    const expiry = task.expiresAt === null ? null : AbortSignal.timeout(Math.max(0, Date.parse(task.expiresAt) - Date.now()));
    const stop = expiry ? AbortSignal.any([signal, expiry]) : signal;
    const lines = createInterface({ input, output, terminal: input.isTTY === true });
    lines.on("SIGINT", () => process.kill(process.pid, "SIGINT"));
    try {
      output.write(describeTask(task));
      for (;;) {
        const ask = (query: string) => lines.question(query, { signal: stop });
        const action = (await ask(`action (${task.actions.map((entry) => entry.id).join(" / ")}): `)).trim();
        const data = task.form !== null || task.editable ? await askData(ask, task.editable) : null;
        const comment = (await ask("comment (optional): ")).trim();
        try {
          return checkedAnswer(task, { action, data: data ?? null, comment: comment === "" ? null : comment }, by);
        } catch (error) {
          if (!(error instanceof WeftError)) throw error;
          output.write(`${error.code}: ${error.message}\n`);
        }
      }
    } catch (error) {
      if (expiry?.aborted && !signal.aborted) return expired();
      if (signal.aborted) return null;
      throw error;
    } finally {
      lines.close();
    }
  };
}

function expired(): HumanTaskAnswer {
  return { action: null, data: null, comment: null, by: null, completedAt: new Date().toISOString(), expired: true };
}

async function askData(ask: (query: string) => Promise<string>, editable: boolean): Promise<JsonValue | null> {
  for (;;) {
    const text = (await ask(editable ? "data as JSON (empty: keep the input as it is): " : "data as JSON (empty: none): ")).trim();
    if (text === "") return null;
    try {
      return JSON.parse(text) as JsonValue;
    } catch {
      // Asked again below: a typo should not end the run.
    }
  }
}

function describeTask(task: OpenTask): string {
  const where = task.invocation ? `${task.nodeId}@${task.invocation}` : task.nodeId;
  const lines = [
    "",
    `⏸ ${task.title}  (node ${where}${task.assignee ? `, for ${task.assignee}` : ""}${task.expiresAt ? `, expires ${task.expiresAt}` : ""})`,
    ...(task.instructions ? [task.instructions] : []),
    `input: ${jsonText(task.input)}`,
    ...(task.form !== null ? [`form: ${JSON.stringify(task.form)}`] : []),
    `actions: ${task.actions.map((action) => (action.label ? `${action.id} (${action.label})` : action.id)).join(", ")}`,
    "",
  ];
  return lines.join("\n");
}
