import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../model/json-value.js";
import { HumanTaskAnswers } from "../../execute/human-task-answers.js";
import { FakeLlmProvider } from "../../testing/fake-llm-provider.js";
import { deferred } from "../../testing/deferred.js";
import { answer, runWithPeople } from "../../testing/human-harness.js";
import { startPipeline } from "../../testing/pipeline-harness.js";
import { body, pipeline } from "../../testing/pipeline-builder.js";
import { builtInRegistry } from "../built-in-node-types.js";
import { validateWorkflow } from "../../rules/validate-workflow.js";

/**
 *  q ─► draft ─► review (human) ─[approve]─► publish ─► merge (join) ─► out
 *                              └─[reject]──► discard ─┘
 */
const approval = (review: Record<string, JsonValue> = {}) =>
  pipeline()
    .input("q", "the sky is blue")
    .node("draft", "template", { template: "Draft: {input}" })
    .node("review", "human", { title: "Check {input}", instructions: "Approve or reject **{input}**.", ...review })
    .node("publish", "template", { template: "published {input}" })
    .node("discard", "template", { template: "rejected" })
    .node("merge", "join", {})
    .output("out")
    .edges("q>draft", "draft>review", "review.approve>publish", "review.reject>discard", "publish>merge", "discard>merge", "merge>out")
    .build();

const startedTwice = (trace: string[]) => trace.filter((line, k) => line.startsWith("NODE_STARTED") && trace.indexOf(line) !== k);

describe("human node (SPEC-V3 §2)", () => {
  it("waits for a person, then goes on through the approve port without running any node twice", async () => {
    const workflow = approval();
    expect(validateWorkflow(workflow, { registry: builtInRegistry })).toEqual([]);
    const run = await runWithPeople({ workflow }, () => answer("approve", { comment: "fine", by: "editor" }));
    expect(run.executions.map((outcome) => outcome.status)).toEqual(["WAITING", "COMPLETED"]);
    expect(run.outcome.result).toBe("published Draft: the sky is blue");
    const [waiting] = run.of("NODE_WAITING");
    expect(waiting).toMatchObject({
      nodeId: "review",
      taskId: "run-1/review",
      title: "Check Draft: the sky is blue",
      instructions: "Approve or reject **Draft: the sky is blue**.",
      actions: [{ id: "approve", label: "Approve" }, { id: "reject", label: "Reject" }],
      form: null,
      expiresAt: null,
      input: "Draft: the sky is blue",
      invocation: "",
    });
    expect(run.of("RUN_WAITING")).toEqual([expect.objectContaining({ taskIds: ["run-1/review"], outputs: { q: "the sky is blue", draft: "Draft: the sky is blue" } })]);
    expect(run.of("HUMAN_TASK_COMPLETED")).toEqual([expect.objectContaining({ taskId: "run-1/review", action: "approve", by: "editor", comment: "fine", expired: false })]);
    const completed = run.of("NODE_COMPLETED").find((event) => event.nodeId === "review")!;
    expect(completed.value).toEqual({ action: "approve", data: null, comment: "fine", by: "editor", at: "2026-12-01T10:00:00.000Z" });
    expect(completed.ports).toEqual(["approve"]);
    expect(run.trace.slice(run.trace.indexOf("RUN_WAITING"))).toEqual([
      "RUN_WAITING",
      "RUN_RESUMED",
      "HUMAN_TASK_COMPLETED review",
      "NODE_COMPLETED review",
      "BRANCH_TAKEN review",
      "NODE_SKIPPED discard",
      "NODE_STARTED publish",
      "NODE_COMPLETED publish",
      "NODE_STARTED merge",
      "NODE_COMPLETED merge",
      "NODE_STARTED out",
      "NODE_DESCRIPTION out",
      "NODE_COMPLETED out",
      "RUN_COMPLETED",
    ]);
    expect(startedTwice(run.trace)).toEqual([]);
    expect(run.events.map((event) => event.seq)).toEqual(run.events.map((_, k) => k + 1));
  });

  it("goes on through the reject port when the person rejects", async () => {
    const run = await runWithPeople({ workflow: approval() }, () => answer("reject"));
    expect(run.outcome.result).toBe("rejected");
    expect(run.trace).toContain("NODE_SKIPPED publish");
  });

  it("with editable, passes the data the person submitted downstream in place of its input", async () => {
    //  q ─► draft (template, JSON) ─► review (human, editable) ─[approve]─► show ─► out
    const workflow = pipeline()
      .input("q", "blue")
      .node("draft", "template", { template: '{"headline": {input}, "words": 1}', json: true })
      .node("review", "human", {
        editable: true,
        actions: [{ id: "approve" }],
        form: { type: "object", properties: { headline: { type: "string" }, words: { type: "integer" } }, required: ["headline"] },
      })
      .node("show", "template", { template: "{input.review}" })
      .output("out")
      .edges("q>draft", "draft>review", "review.approve>show", "show>out")
      .build();
    expect(validateWorkflow(workflow, { registry: builtInRegistry })).toEqual([]);
    const run = await runWithPeople({ workflow }, (task) => {
      expect(task.input).toEqual({ headline: "blue", words: 1 });
      expect(task.editable).toBe(true);
      return answer("approve", { data: { headline: "The sky is blue", words: 4 } });
    });
    expect(JSON.parse(run.outcome.result!)).toEqual({ headline: "The sky is blue", words: 4 });
    expect(run.of("NODE_COMPLETED").find((event) => event.nodeId === "review")!.value).toMatchObject({ data: { headline: "The sky is blue", words: 4 } });
  });

  it("keeps independent branches running while its task is open, and waits only when nothing else can run", async () => {
    //  q ─► review (human) ─[approve]─► merge (join) ─► out
    //   └─► slow (llm) ──────────────────┘
    const gate = deferred<string>();
    const slow = new FakeLlmProvider(async () => gate.promise);
    const workflow = pipeline()
      .input("q", "go")
      .node("review", "human", { actions: [{ id: "approve" }] })
      .node("slow", "llm", {}, { provider: "fake", model: "m" })
      .node("merge", "join", {})
      .output("out")
      .edges("q>review", "q>slow", "review.approve>merge", "slow>merge", "merge>out")
      .build();
    const started = startPipeline({ workflow, providers: [slow] });
    await until(() => started.events.some((event) => event.type === "NODE_WAITING"));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(started.events.map((event) => event.type)).not.toContain("RUN_WAITING");
    gate.resolve("slow answer");
    const first = await started.done;
    expect(first.outcome.status).toBe("WAITING");
    expect(first.trace.indexOf("NODE_COMPLETED slow")).toBeLessThan(first.trace.indexOf("RUN_WAITING"));
  });

  it("takes an answer given while the run executes in the same execution, without waiting", async () => {
    const gate = deferred<string>();
    const slow = new FakeLlmProvider(async () => gate.promise);
    const workflow = pipeline()
      .input("q", "go")
      .node("review", "human", { actions: [{ id: "approve" }] })
      .node("slow", "llm", {}, { provider: "fake", model: "m" })
      .node("merge", "join", {})
      .output("out")
      .edges("q>review", "q>slow", "review.approve>merge", "slow>merge", "merge>out")
      .build();
    const answers = new HumanTaskAnswers();
    const started = startPipeline({ workflow, providers: [slow], humanAnswers: answers });
    await until(() => started.events.some((event) => event.type === "NODE_WAITING"));
    expect(answers.give("run-1/review", answer("approve"))).toBe(true);
    expect(answers.give("run-1/review", answer("approve"))).toBe(false);
    gate.resolve("slow answer");
    const run = await started.done;
    expect(run.outcome.status).toBe("COMPLETED");
    expect(run.trace).not.toContain("RUN_WAITING");
    expect(run.trace.indexOf("HUMAN_TASK_COMPLETED review")).toBeLessThan(run.trace.indexOf("NODE_COMPLETED review"));
  });

  it("opens a new task in the second iteration of a loop, the reject comment becoming the loop's feedback", async () => {
    //  q ─► draft ─► review (human) ─[approve]─► out
    //         ▲──[revise, loop again]──┘
    const workflow = pipeline()
      .input("q", "sky")
      .node("draft", "template", { template: "about {input} #{iteration} {feedback}" })
      .node("review", "human", { actions: [{ id: "approve" }, { id: "revise" }] })
      .output("out")
      .edges("q>draft", "draft>review", "review.approve>out")
      .loop("again", 3, "approve")
      .loopEdge("review.revise>draft", "again")
      .build();
    expect(validateWorkflow(workflow, { registry: builtInRegistry })).toEqual([]);
    const decisions = [answer("revise", { comment: "shorter" }), answer("approve")];
    const run = await runWithPeople({ workflow }, () => decisions.shift()!);
    expect(run.executions.map((outcome) => outcome.status)).toEqual(["WAITING", "WAITING", "COMPLETED"]);
    expect(run.of("NODE_WAITING").map((event) => [event.taskId, event.invocation, event.input])).toEqual([
      ["run-1/review", "", "about sky #1 "],
      ["run-1/review@again#2", "again#2", "about sky #2 shorter"],
    ]);
    expect(run.outcome.result).toBe("about sky #2 shorter");
    expect(startedTwice(run.trace)).toEqual([]);
  });

  it("opens one task per item of a map, all open at once, and goes on when each is answered", async () => {
    //  q ─► each (map: bin ─► ok (human) ─[approve]─► bout) ─► out
    const inner = pipeline()
      .input("bin")
      .node("ok", "human", { title: "Item {item}", actions: [{ id: "approve" }] })
      .output("bout")
      .edges("bin>ok", "ok.approve>bout");
    const workflow = pipeline()
      .input("q", "go")
      .node("each", "map", { items: '["a", "b", "c"]', concurrency: 3, body: body(inner) })
      .output("out")
      .edges("q>each", "each>out")
      .build();
    expect(validateWorkflow(workflow, { registry: builtInRegistry })).toEqual([]);
    // One item answered per wait, in item order.
    const run = await runWithPeople({ workflow }, (task, round) => (task.invocation === `each[${round - 1}]` ? answer("approve", { by: task.title }) : null));
    expect(run.of("NODE_WAITING").map((event) => [event.invocation, event.title])).toEqual([
      ["each[0]", "Item a"],
      ["each[1]", "Item b"],
      ["each[2]", "Item c"],
    ]);
    expect(run.of("RUN_WAITING").map((event) => event.taskIds.length)).toEqual([3, 2, 1]);
    expect(run.outcome.status).toBe("COMPLETED");
    expect(JSON.parse(run.outcome.result!)).toEqual(["a", "b", "c"]);
    expect(startedTwice(run.trace)).toEqual([]);
  });

  it("on expiry takes its onTimeout action, with no one as the author", async () => {
    const workflow = approval({ timeoutSeconds: 60, onTimeout: "reject" });
    const run = await runWithPeople({ workflow, options: { clock: () => Date.parse("2026-12-01T09:00:00.000Z") } }, () =>
      answer(null, { expired: true, by: null }),
    );
    expect(run.of("NODE_WAITING")[0]!.expiresAt).toBe("2026-12-01T09:01:00.000Z");
    expect(run.outcome.result).toBe("rejected");
    expect(run.of("HUMAN_TASK_COMPLETED")[0]).toMatchObject({ action: "reject", by: null, expired: true });
    expect(run.of("NODE_COMPLETED").find((event) => event.nodeId === "review")!.description).toBe('the task expired: took "reject"');
  });

  it("fails with HUMAN_TIMEOUT on expiry when onTimeout is null", async () => {
    const run = await runWithPeople({ workflow: approval({ timeoutSeconds: 60, onTimeout: null }) }, () => answer(null, { expired: true, by: null }));
    expect(run.outcome.status).toBe("FAILED");
    expect(run.of("NODE_FAILED")).toEqual([expect.objectContaining({ nodeId: "review", error: expect.objectContaining({ code: "HUMAN_TIMEOUT" }) })]);
    expect(run.trace).toEqual(expect.arrayContaining(["NODE_SKIPPED publish", "NODE_SKIPPED discard"]));
  });

  it("is cancelled with the run while its task is open: the node fails RUN_CANCELLED", async () => {
    const gate = deferred<string>();
    const controller = new AbortController();
    const workflow = pipeline()
      .input("q", "go")
      .node("review", "human", { actions: [{ id: "approve" }] })
      .node("slow", "llm", {}, { provider: "fake", model: "m" })
      .node("merge", "join", {})
      .output("out")
      .edges("q>review", "q>slow", "review.approve>merge", "slow>merge", "merge>out")
      .build();
    const started = startPipeline({ workflow, providers: [new FakeLlmProvider(async () => gate.promise)], signal: controller.signal, humanAnswers: new HumanTaskAnswers() });
    await until(() => started.events.some((event) => event.type === "NODE_WAITING"));
    controller.abort("stop");
    const run = await started.done;
    expect(run.outcome.status).toBe("CANCELLED");
    expect(run.of("NODE_FAILED").map((event) => [event.nodeId, event.error.code]).sort()).toEqual([
      ["review", "RUN_CANCELLED"],
      ["slow", "RUN_CANCELLED"],
    ]);
  });

  it("fails the node when an answer names an action it does not offer", async () => {
    const run = await runWithPeople({ workflow: approval() }, () => answer("maybe"));
    expect(run.of("NODE_FAILED")[0]!.error.code).toBe("HUMAN_ACTION_UNKNOWN");
  });
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
