import { describe, expect, it } from "vitest";
import { deferred, settle } from "../testing/deferred.js";
import { FakeLlmProvider, resultJson } from "../testing/fake-llm-provider.js";
import { run, startRun } from "../testing/run-harness.js";
import { workflow } from "../testing/workflow-builder.js";
import { ConcurrencyLimiter } from "./concurrency-limiter.js";

/** Waits until `predicate` holds, letting the run make progress between checks (no timing involved). */
async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !predicate(); i += 1) await settle();
  expect(predicate()).toBe(true);
}

describe("dataflow scheduling", () => {
  /*
   *  in ──> gA (slow) ─────────┐
   *   │                         ensemble ──> out
   *   └──> gB ──> vB ──────────┘
   */
  it("starts a node as soon as its own pre-nodes are done, even while another branch is still running", async () => {
    const gate = deferred<void>();
    const provider = new FakeLlmProvider(async (request) => {
      if (request.prompt.startsWith("A:")) await gate.promise;
      return resultJson(request.prompt);
    });
    const wf = workflow()
      .input("in")
      .model("gA", "generation", { prompt: "A:{input_data}" })
      .model("gB", "generation", { prompt: "B:{input_data}" })
      .model("vB", "validation", { prompt: "V:{input_data}" })
      .model("ens", "ensemble")
      .output()
      .edges("in>gA", "in>gB", "gB>vB", "gA>ens", "vB>ens", "ens>out")
      .build();
    const { events, done } = startRun({ workflow: wf, provider });
    await until(() => events.some((event) => event.type === "NODE_COMPLETED" && event.nodeId === "vB"));
    // A round-based scheduler would still be waiting for gA before starting vB.
    expect(events.some((event) => event.type === "NODE_COMPLETED" && event.nodeId === "gA")).toBe(false);
    expect(events.some((event) => event.type === "NODE_STARTED" && event.nodeId === "ens")).toBe(false);
    gate.resolve();
    const { outcome, trace } = await done;
    expect(outcome.status).toBe("COMPLETED");
    expect(trace.indexOf("NODE_COMPLETED vB")).toBeLessThan(trace.indexOf("NODE_COMPLETED gA"));
    expect(outcome.result).toBe("A:in\n\nV:B:in");
  });

  /*
   *  in ──> g1 ──┐
   *  in ──> g2 ──┼──> ens ──> out      edges into ens are created g3, g1, g2
   *  in ──> g3 ──┘
   */
  it("orders a node's inputs by edge creation, whatever order its pre-nodes finish in", async () => {
    const gates = new Map(["g1", "g2", "g3"].map((id) => [id, deferred<void>()]));
    const provider = new FakeLlmProvider(async (request) => {
      const id = request.prompt.slice(0, 2);
      await gates.get(id)?.promise;
      return resultJson(id === "en" ? request.inputData : id);
    });
    const wf = workflow()
      .input("in")
      .model("g1", "generation", { prompt: "g1" })
      .model("g2", "generation", { prompt: "g2" })
      .model("g3", "generation", { prompt: "g3" })
      .model("ens", "ensemble", { prompt: "en" })
      .output()
      .edges("in>g1", "in>g2", "in>g3", "g3>ens", "g1>ens", "g2>ens", "ens>out")
      .build();
    const { done } = startRun({ workflow: wf, provider });
    for (const id of ["g2", "g1", "g3"]) {
      await settle();
      gates.get(id)!.resolve();
    }
    const { outcome, of } = await done;
    expect(of("NODE_COMPLETED").map((event) => event.nodeId).slice(1, 4)).toEqual(["g2", "g1", "g3"]);
    expect(outcome.outputs.ens).toBe("g3\n\ng1\n\ng2");
    expect(of("NODE_COMPLETED").find((event) => event.nodeId === "ens")!.details.inputs).toEqual(["g3", "g1", "g2"]);
  });

  /*
   *  in ──> g1..g6 ──> ens ──> out
   */
  function fanOut(width: number) {
    const builder = workflow().input("in").model("ens", "ensemble").output().edges("ens>out");
    for (let i = 1; i <= width; i += 1) builder.model(`g${i}`, "generation").edges(`in>g${i}`, `g${i}>ens`);
    return builder.build();
  }

  const slowProvider = () =>
    new FakeLlmProvider(async (request) => {
      await settle();
      return resultJson(request.prompt);
    });

  it("never runs more nodes at once than the run's concurrency cap", async () => {
    const capped = slowProvider();
    await run({ workflow: fanOut(6), provider: capped, options: { concurrency: 2 } });
    expect(capped.maxInFlight).toBe(2);
    const uncapped = slowProvider();
    await run({ workflow: fanOut(6), provider: uncapped, options: { concurrency: 16 } });
    expect(uncapped.maxInFlight).toBe(6);
  });

  it("shares a process-wide limiter between runs", async () => {
    const provider = slowProvider();
    const limiter = new ConcurrencyLimiter(3);
    const runs = [1, 2].map(() => run({ workflow: fanOut(5), provider, options: { concurrency: 10, limiter } }));
    const outcomes = await Promise.all(runs);
    expect(outcomes.map((recorded) => recorded.outcome.status)).toEqual(["COMPLETED", "COMPLETED"]);
    expect(provider.maxInFlight).toBe(3);
    expect(limiter.active).toBe(0);
  });
});

describe("run events", () => {
  /*
   *  in ──> g ──> out
   */
  const chain = () => workflow().input("in", "hello").model("g", "generation").output().edges("in>g", "g>out").build();

  it("numbers events from 1 without gaps, stamps them with ISO times and ends with the terminal event", async () => {
    let now = Date.UTC(2026, 0, 1);
    const { events } = await run({ workflow: chain(), provider: new FakeLlmProvider(), options: { clock: () => (now += 7) } });
    expect(events.map((event) => event.seq)).toEqual(events.map((_event, index) => index + 1));
    for (const event of events) {
      expect(event.runId).toBe("run-1");
      expect(new Date(event.at).toISOString()).toBe(event.at);
    }
    expect(events.map((event) => event.at)).toEqual([...events.map((event) => event.at)].sort());
    expect(events.at(-1)!.type).toBe("RUN_COMPLETED");
  });

  it("reports each node as started, described and completed, with its timings", async () => {
    const { trace, of, outcome } = await run({ workflow: chain(), provider: new FakeLlmProvider() });
    expect(trace).toEqual([
      "RUN_STARTED",
      ...["in", "g", "out"].flatMap((id) => [`NODE_STARTED ${id}`, `NODE_DESCRIPTION ${id}`, `NODE_COMPLETED ${id}`]),
      "RUN_COMPLETED",
    ]);
    const completed = of("NODE_COMPLETED")[1]!;
    expect(completed.details.startedAt <= completed.details.finishedAt!).toBe(true);
    expect(of("RUN_COMPLETED")[0]).toMatchObject({ result: "hello", outputs: { in: "hello", g: "hello", out: "hello" } });
    expect(outcome.usage).toEqual({ promptTokens: 1, completionTokens: 2, totalTokens: 3 });
  });

  it("waits for a slow event handler before going on, so events are handled one at a time in order", async () => {
    let handling = 0;
    let overlap = false;
    const handled: number[] = [];
    const { outcome } = await run({
      workflow: chain(),
      provider: new FakeLlmProvider(),
      onEvent: async (event) => {
        handling += 1;
        overlap ||= handling > 1;
        await settle();
        handled.push(event.seq);
        handling -= 1;
      },
    });
    expect(outcome.status).toBe("COMPLETED");
    expect(overlap).toBe(false);
    expect(handled).toEqual(handled.map((_seq, index) => index + 1));
  });

  it("stops the run and rejects when the event handler fails", async () => {
    const attempt = run({
      workflow: chain(),
      provider: new FakeLlmProvider(),
      onEvent: async (event) => {
        if (event.type === "NODE_COMPLETED") throw new Error("disk full");
      },
    });
    await expect(attempt).rejects.toMatchObject({ code: "RUN_EVENT_HANDLER_FAILED", message: expect.stringMatching(/disk full/) });
  });
});

describe("run request", () => {
  /*
   *  a ──> g ──> out
   */
  it("uses content supplied for an input node instead of its stored content", async () => {
    const wf = workflow().input("a", "stored").model("g", "generation").output().edges("a>g", "g>out").build();
    const { outcome } = await run({ workflow: wf, provider: new FakeLlmProvider(), request: { inputs: { a: "supplied" } } });
    expect(outcome.result).toBe("supplied");
    expect(wf.nodes[0]!.content).toBe("stored");
  });
});
