import { describe, expect, it } from "vitest";
import type { JsonValue } from "../model/json-value.js";
import type { StateChannel } from "../model/workflow.js";
import { FakeLlmProvider } from "../testing/fake-llm-provider.js";
import { runPipeline } from "../testing/pipeline-harness.js";
import { body, pipeline } from "../testing/pipeline-builder.js";
import { VirtualClock } from "../testing/virtual-clock.js";

/** Answers `<text>@<ms>` with `<text>` after that much virtual time. */
function timed(clock: VirtualClock, id = "fake") {
  return new FakeLlmProvider(async (request, call) => {
    const [text, ms] = request.prompt.split("@");
    await clock.sleep(Number(ms ?? 0), call.signal);
    return text!;
  }, id);
}

/**
 *  q ─► a ─┐
 *  q ─► b ─┴─► j ─► out      a and b write the same channel at the same time
 */
function twoWriters(channel: StateChannel, a: string, b: string) {
  return pipeline()
    .input("q", "q")
    .node("a", "llm", { writes: "notes" }, { provider: "fake", model: "m", prompt: a })
    .node("b", "llm", { writes: "notes" }, { provider: "fake", model: "m", prompt: b })
    .node("j", "join", { combine: "array" })
    .node("read", "template", { template: "{state.notes}" })
    .output("out")
    .edges("q>a", "q>b", "a>j", "b>j", "j>read", "read>out")
    .state({ notes: channel })
    .build();
}

async function finalState(channel: StateChannel, a: string, b: string) {
  const clock = new VirtualClock();
  const { value } = await clock.run(runPipeline({ workflow: twoWriters(channel, a, b), providers: [timed(clock)] }));
  return value;
}

describe("state channels (SPEC-V2 §4)", () => {
  it("merges concurrent appends in graph order, whichever writer finishes first", async () => {
    const aFirst = await finalState({ reducer: "append" }, "from a@10", "from b@20");
    const bFirst = await finalState({ reducer: "append" }, "from a@20", "from b@10");
    expect(aFirst.outcome.state).toEqual({ notes: ["from a", "from b"] });
    expect(bFirst.outcome.state).toEqual(aFirst.outcome.state);
    expect(bFirst.outcome.result).toBe('["from a","from b"]');
    expect(bFirst.of("RUN_COMPLETED")[0]?.state).toEqual({ notes: ["from a", "from b"] });
  });

  it("keeps appendUnique free of repeats by key and merges objects shallowly, in the same order", async () => {
    const unique = twoWriters({ reducer: "appendUnique", key: "id" }, "x", "y");
    unique.nodes[1] = { id: "a", type: "template", config: { template: '{"id": 1, "by": "a"}', json: true, writes: "notes" } };
    unique.nodes[2] = { id: "b", type: "template", config: { template: '[{"id": 1, "by": "b"}, {"id": 2, "by": "b"}]', json: true, writes: "notes" } };
    expect((await runPipeline({ workflow: unique })).outcome.state).toEqual({ notes: [{ id: 1, by: "a" }, { id: 2, by: "b" }] });
    const workflow = twoWriters({ reducer: "merge" }, "x", "y");
    workflow.nodes[1] = { id: "a", type: "template", config: { template: '{"first": 1, "shared": "a"}', json: true, writes: "notes" } };
    workflow.nodes[2] = { id: "b", type: "template", config: { template: '{"second": 2, "shared": "b"}', json: true, writes: "notes" } };
    expect((await runPipeline({ workflow })).outcome.state).toEqual({ notes: { first: 1, shared: "b", second: 2 } });
  });

  it("orders the writes of a map's items by item index, not by finishing order", async () => {
    const clock = new VirtualClock();
    const inner = pipeline().input("bin").node("work", "llm", { writes: "seen" }, { provider: "fake", model: "m", prompt: "{item}" }).output("bout").edges("bin>work", "work>bout");
    const workflow = pipeline()
      .input("q")
      .node("each", "map", { items: '["c@30", "a@10", "b@20"]', concurrency: 3, body: body(inner) })
      .output("out")
      .edges("q>each", "each>out")
      .state({ seen: { reducer: "append" } })
      .build();
    const { value } = await clock.run(runPipeline({ workflow, providers: [timed(clock)], options: { stateEvents: true } }));
    expect(value.outcome.state).toEqual({ seen: ["c", "a", "b"] });
    expect(value.of("STATE_UPDATED").map((event) => event.invocation)).toEqual(["each[1]", "each[2]", "each[0]"]);
  });

  it("lets a node read the state as it stood when the node started, and starts from the values the caller gives", async () => {
    const workflow = pipeline()
      .input("q", "hello")
      .node("keep", "template", { template: "{input}", writes: "history" })
      .node("say", "template", { template: "{state.history}" })
      .output("out")
      .edges("q>keep", "keep>say", "say>out")
      .state({ history: { reducer: "append", scope: "thread" } })
      .build();
    const { outcome } = await runPipeline({ workflow, state: { history: ["earlier"] as JsonValue } });
    expect(outcome.result).toBe('["earlier","hello"]');
    expect(outcome.state).toEqual({ history: ["earlier", "hello"] });
  });

  it("fails a node whose output does not suit its channel's reducer", async () => {
    const workflow = twoWriters({ reducer: "merge" }, "x", "y");
    workflow.nodes[1] = { id: "a", type: "template", config: { template: "plain text", writes: "notes" } };
    workflow.nodes[2] = { id: "b", type: "template", config: { template: "{}", json: true } };
    const { outcome, of } = await runPipeline({ workflow });
    expect(outcome.status).toBe("FAILED");
    expect(of("NODE_FAILED")[0]).toMatchObject({ nodeId: "a", error: { code: "STATE_WRITE_INVALID" } });
  });
});
