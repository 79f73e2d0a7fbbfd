import type { RunEvent, RunEventOf } from "../events/run-event.js";
import type { HumanTaskAnswer } from "../model/human-task.js";
import { HumanTaskAnswers } from "../execute/human-task-answers.js";
import { resumeFromEvents, type StoredEvent } from "../execute/run-resume.js";
import type { RunOutcome } from "../execute/workflow-runner.js";
import { runPipeline, type PipelineRunInput } from "./pipeline-harness.js";

export type OpenTask = RunEventOf<"NODE_WAITING">;

export interface PeopleRun {
  /** Every event of every execution, in seq order. */
  events: RunEvent[];
  /** The last execution's outcome. */
  outcome: RunOutcome;
  /** The outcome of each execution (WAITING until the last). */
  executions: RunOutcome[];
  /** `"TYPE node@invocation"` of every event. */
  trace: string[];
  of<T extends RunEvent["type"]>(type: T): RunEventOf<T>[];
}

/** An answer as a person gives it, time fixed so runs compare equal. */
export function answer(action: string | null, fields: Partial<HumanTaskAnswer> = {}): HumanTaskAnswer {
  return { action, data: null, comment: null, by: "tester", completedAt: "2026-12-01T10:00:00.000Z", expired: false, ...fields };
}

/**
 * Runs a workflow as a host does with people in the loop: each time the run ends WAITING, `decide` is
 * asked about every open task (null: no answer yet; `round` counts the waits from 1), and the run continues from its stored events with
 * the answers given so far — a new execution, as a worker process would start it. Stops when the run
 * ends, or when it waits and `decide` answers nothing.
 */
export async function runWithPeople(input: PipelineRunInput, decide: (task: OpenTask, round: number) => HumanTaskAnswer | null): Promise<PeopleRun> {
  const events: RunEvent[] = [];
  const executions: RunOutcome[] = [];
  const given = new Map<string, HumanTaskAnswer>();
  let run = await runPipeline(input);
  for (;;) {
    events.push(...run.events);
    executions.push(run.outcome);
    if (run.outcome.status !== "WAITING") break;
    const open = events.filter((event): event is OpenTask => event.type === "NODE_WAITING" && run.outcome.waitingFor!.includes(event.taskId));
    let answered = 0;
    for (const task of open) {
      const decision = decide(task, executions.length);
      if (decision) {
        given.set(task.taskId, decision);
        answered += 1;
      }
    }
    if (answered === 0) break;
    const record = resumeFromEvents(events.map((event) => ({ ...event }) as unknown as StoredEvent));
    const resume = { attempt: executions.length + 1, lastSeq: events.at(-1)!.seq, record };
    run = await runPipeline({ ...input, resume, humanAnswers: new HumanTaskAnswers(given) });
  }
  const outcome = executions.at(-1)!;
  return {
    events,
    outcome,
    executions,
    trace: events.map(describe),
    of: <T extends RunEvent["type"]>(type: T) => events.filter((event): event is RunEventOf<T> => event.type === type),
  };
}

function describe(event: RunEvent): string {
  if (!("nodeId" in event) || !event.nodeId) return event.type;
  const invocation = "invocation" in event && event.invocation ? `@${event.invocation}` : "";
  return `${event.type} ${event.nodeId}${invocation}`;
}
