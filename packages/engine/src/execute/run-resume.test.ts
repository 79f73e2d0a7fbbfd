import { describe, expect, it } from "vitest";
import type { JsonValue } from "../model/json-value.js";
import type { Workflow } from "../model/workflow.js";
import { runPipeline } from "../testing/pipeline-harness.js";
import { body, pipeline } from "../testing/pipeline-builder.js";
import { answer } from "../testing/human-harness.js";
import { HumanTaskAnswers } from "./human-task-answers.js";
import { eventKey, resumeFromEvents } from "./run-resume.js";

const verdict = (v: string, reason = "") => ({ verdict: v, score: v === "pass" ? 0.9 : 0.2, reason });

/**
 *  q ─► draft ─► check ─[pass]─► out
 *         ▲────[retry, loop regen]─┘
 */
const retryLoop = () =>
  pipeline()
    .input("q", "why is the sky blue?")
    .model("draft", "llm", ["draft one", "draft two", "draft three"], {}, { prompt: "Answer {input} (try {iteration}) {feedback}" })
    .model("check", "grade", [verdict("retry", "cite a source"), verdict("retry", "shorter"), verdict("pass")])
    .output("out")
    .edges("q>draft", "draft>check", "check.pass>out")
    .loop("regen", 3, "pass")
    .loopEdge("check.retry>draft", "regen")
    .build();

/** q ─► each (map over 3 items: bin ─► work ─► bout) ─► out */
const mapOfThree = () => {
  const inner = pipeline().input("bin").node("work", "template", { template: "<{item}>" }).output("bout").edges("bin>work", "work>bout");
  return pipeline().input("q", "go").node("each", "map", { items: '["a", "b", "c"]', concurrency: 2, body: body(inner) }).output("out").edges("q>each", "each>out").build();
};

/**
 *  q ─► route (switch) ─[long]─► long ─► merge (join) ─► out
 *            └──────────[short]─► short ─┘
 */
const branches = () =>
  pipeline()
    .input("q", "tell me more")
    .node("route", "switch", { cases: [{ port: "long", when: 'input.contains("more")' }, { port: "short", when: "true" }] })
    .model("long", "llm", ["a long answer"])
    .model("short", "llm", ["short"])
    .node("merge", "join", {})
    .output("out")
    .edges("q>route", "route.long>long", "route.short>short", "long>merge", "short>merge", "merge>out")
    .build();

const key = (event: { type: string; nodeId?: string; invocation?: string }) =>
  event.nodeId === undefined ? event.type : `${event.type} ${event.nodeId}@${event.invocation ?? ""}`;

/**
 * Cuts a complete run's events after each of them in turn (the worker stopped right after storing
 * them), resumes from what was stored, and checks the run ends as the uninterrupted one did.
 */
async function resumeAtEveryCut(workflow: Workflow, answers: Array<[string, ReturnType<typeof answer>]> = []) {
  const humanAnswers = () => new HumanTaskAnswers(answers);
  const reference = await runPipeline({ workflow, humanAnswers: humanAnswers() });
  for (let cut = 1; cut < reference.events.length - 1; cut += 1) {
    const stored = reference.events.slice(0, cut);
    const record = resumeFromEvents(stored.map((event) => ({ ...event }) as { type: string } & Record<string, JsonValue>));
    const resumed = await runPipeline({ workflow, resume: { attempt: 2, lastSeq: cut, record }, humanAnswers: humanAnswers() });
    const all = [...stored, ...resumed.events];
    const context = `cut after event ${cut} (${key(stored.at(-1) as { type: string })})`;
    expect(resumed.events[0], context).toMatchObject({ type: "RUN_RESUMED", attempt: 2, seq: cut + 1 });
    expect(all.map((event) => event.seq), context).toEqual(all.map((_, index) => index + 1));
    expect({ status: resumed.outcome.status, result: resumed.outcome.result, outputs: resumed.outcome.outputs }, context).toEqual({
      status: reference.outcome.status, result: reference.outcome.result, outputs: reference.outcome.outputs,
    });
    // Finished invocations are not executed again; each structural event is stored once.
    const finishedBefore = new Set(stored.filter((event) => event.type === "NODE_COMPLETED").map(key));
    const restarted = resumed.events.filter((event) => event.type === "NODE_STARTED").map((event) => key({ ...event, type: "NODE_COMPLETED" }));
    expect(restarted.filter((started) => finishedBefore.has(started)), context).toEqual([]);
    const keys = all.map((event) => eventKey(event as unknown as { type: string })).filter((k): k is string => k !== null);
    expect(new Set(keys).size, context).toBe(keys.length);
  }
  return reference;
}

describe("resuming a run after its worker stopped", () => {
  it("continues a retry loop at every point: finished drafts and grades are not asked again, the feedback carries over", async () => {
    const reference = await resumeAtEveryCut(retryLoop());
    expect(reference.outcome.result).toBe("draft three");
  });

  it("continues a map at every point: finished items are not run again and the item order holds", async () => {
    const reference = await resumeAtEveryCut(mapOfThree());
    expect(JSON.parse(reference.outcome.result!)).toEqual(["<a>", "<b>", "<c>"]);
  });

  it("continues after a router at every point: the untaken branch stays skipped, the join waits as before", async () => {
    const reference = await resumeAtEveryCut(branches());
    expect(reference.outcome.result).toBe("a long answer");
  });

  it("continues a map of tasks for people at every point: no task is opened twice, each answer is recorded once", async () => {
    //  q ─► each (map: bin ─► ok (human) ─[yes]─► bout) ─► out
    const inner = pipeline().input("bin").node("ok", "human", { actions: [{ id: "yes" }], editable: true }).output("bout").edges("bin>ok", "ok.yes>bout");
    const workflow = pipeline().input("q", "go").node("each", "map", { items: '["a", "b"]', body: body(inner) }).output("out").edges("q>each", "each>out").build();
    const answers: Array<[string, ReturnType<typeof answer>]> = [
      ["run-1/ok@each[0]", answer("yes", { data: "A" })],
      ["run-1/ok@each[1]", answer("yes")],
    ];
    const reference = await resumeAtEveryCut(workflow, answers);
    expect(JSON.parse(reference.outcome.result!)).toEqual(["A", "b"]);
    expect(reference.of("NODE_WAITING").map((event) => event.taskId)).toEqual(["run-1/ok@each[0]", "run-1/ok@each[1]"]);
  });

  it("runs a node that was running when the worker stopped again, after RUN_RESUMED", async () => {
    const workflow = retryLoop();
    const reference = await runPipeline({ workflow });
    const startedDraft = reference.events.findIndex((event) => event.type === "NODE_STARTED" && event.nodeId === "draft");
    const stored = reference.events.slice(0, startedDraft + 1);
    const resumed = await runPipeline({ workflow, resume: { attempt: 3, lastSeq: stored.length, record: resumeFromEvents(stored.map((event) => ({ ...event }))) } });
    expect(resumed.trace.slice(0, 2)).toEqual(["RUN_RESUMED", "NODE_STARTED draft"]);
    expect(resumed.of("NODE_STARTED").filter((event) => event.nodeId === "q")).toEqual([]);
  });
});
