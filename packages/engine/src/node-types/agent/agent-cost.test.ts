import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../model/json-value.js";
import type { LlmProvider, LlmReply, LlmRequest, LlmStreamChunk } from "../../providers/llm-provider.js";
import { OfflineLlmProvider } from "../../providers/offline-llm-provider.js";
import { resumeFromEvents } from "../../execute/run-resume.js";
import { FakeMcpTools, FakeWorkflowTools } from "../../testing/fake-agent-tools.js";
import { runPipeline } from "../../testing/pipeline-harness.js";
import { pipeline } from "../../testing/pipeline-builder.js";

/** Every reply reports 10 + 100 tokens; at $1 / $2 per million tokens a call costs $0.00021. */
const USAGE = { promptTokens: 10, completionTokens: 100, totalTokens: 110 };
const CALL_COST = 0.00021;

/** The offline scripted model with prices and a fixed usage: an agent whose steps cost money. */
class PricedOffline implements LlmProvider {
  readonly #offline = new OfflineLlmProvider();
  readonly id = this.#offline.id;
  readonly label = this.#offline.label;
  readonly models = this.#offline.models.map((model) => ({ ...model, testOnly: false, inputUsdPerMTok: 1, outputUsdPerMTok: 2 }));
  requests = 0;

  async complete(request: LlmRequest, signal: AbortSignal): Promise<LlmReply> {
    this.requests += 1;
    return { ...(await this.#offline.complete(request, signal)), usage: USAGE };
  }

  async *stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmStreamChunk> {
    yield { type: "done", reply: await this.complete(request, signal) };
  }
}

const calls = (...list: Array<[string, JsonValue]>) => ({ toolCalls: list.map(([name, args]) => ({ name, arguments: args })) });

/** A published workflow whose run makes two priced model calls of $0.001 each (estimated at $0.002 each). */
const summarizer = () =>
  new FakeWorkflowTools({
    wf_sum: {
      name: "summarize",
      inputs: ["text"],
      pricedCalls: [
        { estimateUsd: 0.002, usd: 0.001, usage: { promptTokens: 300, completionTokens: 200, totalTokens: 500 } },
        { estimateUsd: 0.002, usd: 0.001, usage: { promptTokens: 300, completionTokens: 200, totalTokens: 500 } },
      ],
      run: (args) => `summary of ${String(args["text"])}`,
    },
  });

/** q ─► research (agent, a workflow tool) ─► out */
const agentWithWorkflowTool = (maxCostUsd?: number) => {
  const builder = pipeline()
    .input("q", "summarize")
    .model("research", "agent", [calls(["summarize", { text: "a long text" }]), "done"], { tools: [{ type: "workflow", workflowId: "wf_sum", version: 1 }] })
    .output("out")
    .edges("q>research", "research>out");
  return (maxCostUsd === undefined ? builder : builder.maxCostUsd(maxCostUsd)).build();
};

describe("a workflow tool's cost", () => {
  it("counts on the call's node run and on the calling run, tokens and dollars", async () => {
    const workflow = pipeline()
      .input("q", "summarize")
      .model("research", "agent", [calls(["summarize", { text: "a long text" }]), "done"], { tools: [{ type: "workflow", workflowId: "wf_sum", version: 1 }] })
      .output("out")
      .edges("q>research", "research>out")
      .build();
    const run = await runPipeline({ workflow, tools: { workflows: summarizer() } });
    expect(run.outcome.status).toBe("COMPLETED");
    const call = run.of("NODE_COMPLETED").find((event) => event.invocation === "research@1.1")!;
    expect(call.details.costUsd).toBeCloseTo(0.002, 12);
    expect(call.details.usage).toEqual({ promptTokens: 600, completionTokens: 400, totalTokens: 1000 });
    expect(run.outcome.costUsd).toBeCloseTo(0.002, 12);
    expect(run.outcome.usage.totalTokens).toBeGreaterThanOrEqual(1000);
  });

  it("counts against the caller's limits.maxCostUsd: the called run's call that would pass it stops the caller", async () => {
    // Room for the first inner call's estimate, not for the second's after the first cost $0.001.
    const workflows = summarizer();
    const run = await runPipeline({ workflow: agentWithWorkflowTool(0.0025), tools: { workflows } });
    expect(run.outcome).toMatchObject({ status: "FAILED", error: { code: "RUN_COST_EXCEEDED" } });
    expect(run.outcome.error!.message).toMatch(/^node "research" would make a model call estimated at up to \$0\.00200, taking the run past its limit of \$0\.00250/);
    const call = run.of("NODE_FAILED").find((event) => event.invocation === "research@1.1")!;
    expect(call.error.code).toBe("RUN_COST_EXCEEDED");
    // The first inner call was made and is counted, on the call's node run too; the second was never made.
    expect(call.details.costUsd).toBeCloseTo(0.001, 12);
    expect(run.outcome.costUsd).toBeCloseTo(0.001, 12);
    expect(run.of("RUN_FAILED")[0]!.costUsd).toBeCloseTo(0.001, 12);
  });

  it("lets the called run spend what the caller has left, and no more", async () => {
    const model = new PricedOffline();
    const workflow = pipeline()
      .input("q", "summarize")
      .node("research", "agent", { tools: [{ type: "workflow", workflowId: "wf_sum", version: 1 }] }, { provider: "offline", model: "scripted", params: { replies: [calls(["summarize", { text: "a long text" }]), "done"], maxTokens: 100 } })
      .output("out")
      .edges("q>research", "research>out")
      .maxCostUsd(1)
      .build();
    const run = await runPipeline({ workflow, providers: [model], tools: { workflows: summarizer() } });
    expect(run.outcome.status).toBe("COMPLETED");
    // Two agent steps, and the workflow tool's two calls.
    expect(run.outcome.costUsd).toBeCloseTo(2 * CALL_COST + 0.002, 12);
    const agent = run.of("NODE_COMPLETED").find((event) => event.nodeId === "research" && event.invocation === "")!;
    expect(agent.details.costUsd).toBeCloseTo(2 * CALL_COST, 12);
  });
});

describe("a resumed agent's cost", () => {
  /** q ─► research (agent on a priced model: three steps) ─► out */
  const replies = [calls(["count", { n: 1 }]), calls(["count", { n: 2 }]), "counted"];
  const workflow = (maxCostUsd: number) =>
    pipeline()
      .input("q", "count")
      .node("research", "agent", { tools: [{ type: "mcp", server: "counter" }] }, { provider: "offline", model: "scripted", params: { replies, maxTokens: 100 } })
      .output("out")
      .edges("q>research", "research>out")
      .maxCostUsd(maxCostUsd)
      .build();
  const counter = () => new FakeMcpTools({ counter: [{ name: "count", call: (args) => `counted ${String(args["n"])}` }] });

  it("adds the replayed steps' cost back, so the run costs what it would have without the crash", async () => {
    const reference = await runPipeline({ workflow: workflow(1), providers: [new PricedOffline()], tools: { mcp: counter() } });
    expect(reference.outcome.costUsd).toBeCloseTo(3 * CALL_COST, 12);
    const cut = reference.events.findIndex((event) => event.type === "AGENT_STEP" && event.step === 2) + 1;
    const stored = reference.events.slice(0, cut);
    const record = resumeFromEvents(stored.map((event) => ({ ...event }) as unknown as { type: string } & Record<string, unknown>));
    const model = new PricedOffline();
    const resumed = await runPipeline({ workflow: workflow(1), providers: [model], tools: { mcp: counter() }, resume: { attempt: 2, lastSeq: cut, record } });
    expect(resumed.outcome.status).toBe("COMPLETED");
    expect(model.requests).toBe(1);
    expect(resumed.outcome.costUsd).toBeCloseTo(3 * CALL_COST, 12);
    const agent = resumed.of("NODE_COMPLETED").find((event) => event.nodeId === "research" && event.invocation === "")!;
    expect(agent.details.costUsd).toBeCloseTo(3 * CALL_COST, 12);
  });

  it("counts the replayed steps against limits.maxCostUsd", async () => {
    const reference = await runPipeline({ workflow: workflow(1), providers: [new PricedOffline()], tools: { mcp: counter() } });
    const cut = reference.events.findIndex((event) => event.type === "AGENT_STEP" && event.step === 2) + 1;
    const record = resumeFromEvents(reference.events.slice(0, cut).map((event) => ({ ...event }) as unknown as { type: string } & Record<string, unknown>));
    const model = new PricedOffline();
    const limit = 2 * CALL_COST + 0.0001;
    const resumed = await runPipeline({ workflow: workflow(limit), providers: [model], tools: { mcp: counter() }, resume: { attempt: 2, lastSeq: cut, record } });
    expect(model.requests).toBe(0);
    expect(resumed.outcome).toMatchObject({ status: "FAILED", error: { code: "RUN_COST_EXCEEDED" } });
    const message = resumed.outcome.error!.message;
    expect(message).toContain(`(spent $${(2 * CALL_COST).toPrecision(3)})`);
    // The third step's estimate alone fits the limit: only the replayed steps' cost takes it past.
    const estimate = Number(/estimated at up to \$(\S+),/.exec(message)![1]);
    expect(estimate).toBeLessThanOrEqual(limit);
  });
});
