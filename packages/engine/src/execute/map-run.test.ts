import { describe, expect, it } from "vitest";
import type { JsonValue } from "../model/json-value.js";
import { builtInRegistry } from "../node-types/built-in-node-types.js";
import { validateWorkflow } from "../rules/validate-workflow.js";
import { FakeLlmProvider } from "../testing/fake-llm-provider.js";
import { runPipeline, startPipeline } from "../testing/pipeline-harness.js";
import { body, pipeline } from "../testing/pipeline-builder.js";
import { VirtualClock } from "../testing/virtual-clock.js";

/** A model whose answer to `item:<name>` takes the virtual time the name says (`slow:300`). */
function timedModel(clock: VirtualClock) {
  return new FakeLlmProvider(async (request, call) => {
    const ms = Number(/:(\d+)/.exec(request.prompt)?.[1] ?? 0);
    await clock.sleep(ms, call.signal);
    return `done ${request.prompt}`;
  });
}

/** q ─► each (map: bin ─► work ─► bout) ─► out */
function mapOf(items: JsonValue[], config: Record<string, JsonValue> = {}) {
  const inner = pipeline().input("bin").node("work", "llm", {}, { provider: "fake", model: "m", prompt: "{item}" }).output("bout").edges("bin>work", "work>bout");
  return pipeline()
    .input("q", "go")
    .node("each", "map", { items: JSON.stringify(items), body: body(inner), ...config })
    .output("out")
    .edges("q>each", "each>out")
    .build();
}

describe("map (SPEC-V2 §3)", () => {
  it("runs 3 items with concurrency 3 in about one item's time, and 3 items one by one in three", async () => {
    for (const [concurrency, expected] of [[3, 100], [1, 300]] as const) {
      const clock = new VirtualClock();
      const workflow = mapOf(["a:100", "b:100", "c:100"], { concurrency });
      expect(validateWorkflow(workflow, { registry: builtInRegistry })).toEqual([]);
      const { value, elapsed } = await clock.run(runPipeline({ workflow, providers: [timedModel(clock)] }));
      expect(value.outcome.status).toBe("COMPLETED");
      expect(elapsed).toBe(expected);
    }
  });

  it("keeps item order in its output whatever order the items finish in", async () => {
    const clock = new VirtualClock();
    const workflow = mapOf(["slow:300", "fast:100", "mid:200"], { concurrency: 3 });
    const { value, elapsed } = await clock.run(runPipeline({ workflow, providers: [timedModel(clock)] }));
    expect(elapsed).toBe(300);
    expect(JSON.parse(value.outcome.result!)).toEqual(["done slow:300", "done fast:100", "done mid:200"]);
    expect(value.of("MAP_ITEM_COMPLETED").map((event) => event.index)).toEqual([1, 2, 0]);
    expect(value.of("MAP_STARTED")).toEqual([expect.objectContaining({ nodeId: "each", items: 3, invocation: "" })]);
    expect(value.of("NODE_COMPLETED").filter((event) => event.nodeId === "work").map((event) => event.invocation)).toEqual(["each[1]", "each[2]", "each[0]"]);
  });

  it("with onItemError skip, leaves a failed item out of the output and says which", async () => {
    //  body: bin ─► gate (switch: item != "bad"; no default) ─[ok]─► t ─► bout
    const inner = pipeline()
      .input("bin")
      .node("gate", "switch", { cases: [{ port: "ok", when: 'item != "bad"' }] })
      .node("t", "template", { template: "{item}!" })
      .output("bout")
      .edges("bin>gate", "gate.ok>t", "t>bout");
    const build = (onItemError: string) =>
      pipeline().input("q").node("each", "map", { items: '["x", "bad", "y"]', onItemError, body: body(inner) }).output("out").edges("q>each", "each>out").build();
    const skipped = await runPipeline({ workflow: build("skip") });
    expect(skipped.outcome).toMatchObject({ status: "COMPLETED", result: '["x!","y!"]' });
    expect(skipped.of("WARNING")).toEqual([expect.objectContaining({ nodeId: "each", code: "MAP_ITEM_SKIPPED", message: expect.stringContaining("item 1 was skipped") })]);
    expect(skipped.of("NODE_FAILED")).toEqual([expect.objectContaining({ nodeId: "gate", invocation: "each[1]", error: expect.objectContaining({ code: "NO_BRANCH_MATCHED" }) })]);
    const failed = await runPipeline({ workflow: build("fail") });
    expect(failed.outcome.status).toBe("FAILED");
    expect(failed.of("NODE_FAILED").map((event) => [event.nodeId, event.error.code])).toEqual([
      ["gate", "NO_BRANCH_MATCHED"],
      ["each", "MAP_ITEM_FAILED"],
    ]);
  });

  it("maps over its input by default and refuses more items than maxItems", async () => {
    const inner = pipeline().input("bin").node("t", "template", { template: "{index}:{item}" }).output("bout").edges("bin>t", "t>bout");
    const build = (maxItems: number) =>
      pipeline()
        .input("q", "three words here")
        .node("split", "template", { template: '["a", "b", "c"]', json: true })
        .node("each", "map", { body: body(inner), maxItems })
        .output("out")
        .edges("q>split", "split>each", "each>out")
        .build();
    expect((await runPipeline({ workflow: build(3) })).outcome.result).toBe('["0:a","1:b","2:c"]');
    const refused = await runPipeline({ workflow: build(2) });
    expect(refused.of("NODE_FAILED")[0]).toMatchObject({ nodeId: "each", error: { code: "MAP_TOO_MANY_ITEMS" } });
  });

  it("runs a subgraph's body once as one node, under the subgraph's invocation", async () => {
    const inner = pipeline().input("sin").node("shout", "template", { template: "{input}!" }).output("sout").edges("sin>shout", "shout>sout");
    const workflow = pipeline().input("q", "hey").node("sub", "subgraph", { body: body(inner) }).output("out").edges("q>sub", "sub>out").build();
    const { outcome, of } = await runPipeline({ workflow });
    expect(outcome.result).toBe("hey!");
    expect(of("NODE_STARTED").map((event) => [event.nodeId, event.invocation])).toEqual([
      ["q", ""],
      ["sub", ""],
      ["sin", "sub"],
      ["shout", "sub"],
      ["sout", "sub"],
      ["out", ""],
    ]);
  });

  it("shares the run's concurrency cap between items and never deadlocks on it", async () => {
    const clock = new VirtualClock();
    const provider = timedModel(clock);
    const workflow = mapOf(["a:100", "b:100", "c:100", "d:100"], { concurrency: 4 });
    const { value, elapsed } = await clock.run(startPipeline({ workflow, providers: [provider], options: { concurrency: 2 } }).done);
    expect(value.outcome.status).toBe("COMPLETED");
    expect(provider.maxInFlight).toBe(2);
    expect(elapsed).toBe(200);
  });
});
