import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../model/json-value.js";
import type { Workflow } from "../../model/workflow.js";
import type { LlmProvider, LlmReply, LlmRequest, LlmStreamChunk } from "../../providers/llm-provider.js";
import { OfflineLlmProvider } from "../../providers/offline-llm-provider.js";
import { eventKey, resumeFromEvents } from "../../execute/run-resume.js";
import { validateWorkflow } from "../../rules/validate-workflow.js";
import { deferred } from "../../testing/deferred.js";
import { FakeMcpTools, FakeWorkflowTools } from "../../testing/fake-agent-tools.js";
import { FakeKnowledgeBases } from "../../testing/fake-tools.js";
import { runPipeline, startPipeline } from "../../testing/pipeline-harness.js";
import { body, pipeline } from "../../testing/pipeline-builder.js";
import { builtInRegistry } from "../built-in-node-types.js";
import { TOOL_LIMITS } from "../common/tools/tool-spec.js";

/** The offline provider, recording what each model call was sent. */
class RecordingOffline implements LlmProvider {
  readonly #offline = new OfflineLlmProvider();
  readonly id = this.#offline.id;
  readonly label = this.#offline.label;
  readonly models = this.#offline.models;
  readonly requests: LlmRequest[] = [];

  complete(request: LlmRequest, signal: AbortSignal): Promise<LlmReply> {
    this.requests.push(request);
    return this.#offline.complete(request, signal);
  }

  stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmStreamChunk> {
    this.requests.push(request);
    return this.#offline.stream(request, signal);
  }
}

const calls = (...list: Array<[string, JsonValue]>) => ({ toolCalls: list.map(([name, args]) => ({ name, arguments: args })) });

/** q ─► research (agent) ─► out */
const agentWorkflow = (replies: JsonValue[], config: Record<string, JsonValue> = {}): Workflow =>
  pipeline()
    .input("q", "What colour is the sky, and the weather in Gwangju?")
    .model("research", "agent", replies, { tools: [{ type: "retrieve", knowledgeBase: "docs" }, { type: "mcp", server: "weather" }], ...config }, { prompt: "Task: {input}" })
    .output("out")
    .edges("q>research", "research>out")
    .build();

const docs = () => new FakeKnowledgeBases({ docs: [{ id: "c1", documentId: "sky", chunkIndex: 0, text: "The sky colour is blue because of Rayleigh scattering." }] });
const weather = (forecast: () => JsonValue | Promise<JsonValue> = () => "sunny") =>
  new FakeMcpTools({ weather: [{ name: "forecast", description: "The forecast of a city.", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }, call: forecast }] });

describe("agent node (SPEC-V3 §3)", () => {
  it("calls the tools the model asks for in parallel, each an invocation of its own, and feeds their results back", async () => {
    const model = new RecordingOffline();
    const bothStarted = deferred<void>();
    let started = 0;
    const meet = async () => {
      started += 1;
      if (started === 2) bothStarted.resolve();
      await bothStarted.promise; // one call alone would wait here for ever: the two run at once
    };
    const kb = docs();
    const search = kb.search.bind(kb);
    kb.search = async (...args) => (await meet(), search(...args));
    const mcp = weather(async () => (await meet(), "sunny"));
    const workflow = agentWorkflow([calls(["search_docs", { query: "sky colour" }], ["forecast", { city: "Gwangju" }]), "Blue, and sunny in Gwangju."]);
    expect(validateWorkflow(workflow, { registry: builtInRegistry })).toEqual([]);
    const run = await runPipeline({ workflow, providers: [model], tools: { knowledgeBases: kb, mcp } });

    expect(run.outcome.status).toBe("COMPLETED");
    expect(run.outcome.result).toBe("Blue, and sunny in Gwangju.");
    expect(run.trace).toEqual([
      "RUN_STARTED",
      "NODE_STARTED q",
      "NODE_DESCRIPTION q",
      "NODE_COMPLETED q",
      "NODE_STARTED research",
      "AGENT_STEP research",
      "NODE_STARTED research@research@1.1",
      "TOOL_CALLED research@research@1.1",
      "NODE_STARTED research@research@1.2",
      "TOOL_CALLED research@research@1.2",
      // the two calls end in either order
      ...run.trace.slice(10, 14),
      "AGENT_STEP research",
      "NODE_COMPLETED research",
      "NODE_STARTED out",
      "NODE_DESCRIPTION out",
      "NODE_COMPLETED out",
      "RUN_COMPLETED",
    ]);
    expect(run.trace.slice(10, 14).sort()).toEqual([
      "NODE_COMPLETED research@research@1.1",
      "NODE_COMPLETED research@research@1.2",
      "TOOL_RESULT research@research@1.1",
      "TOOL_RESULT research@research@1.2",
    ]);
    expect(run.of("AGENT_STEP").map(({ step, calls: asked }) => ({ step, asked: asked.map((call) => call.tool) }))).toEqual([
      { step: 1, asked: ["search_docs", "forecast"] },
      { step: 2, asked: [] },
    ]);
    expect(run.of("TOOL_CALLED")[1]).toMatchObject({ callId: "call_1_2", tool: "forecast", arguments: { city: "Gwangju" }, invocation: "research@1.2" });
    expect(run.of("TOOL_RESULT").find((event) => event.callId === "call_1_2")).toMatchObject({ tool: "forecast", ok: true, summary: "sunny" });
    const searched = run.of("NODE_COMPLETED").find((event) => event.invocation === "research@1.1")!;
    expect(searched.value).toEqual([expect.objectContaining({ chunkId: "c1", source: "sky", knowledgeBase: "docs" })]);

    const [first, second] = model.requests;
    expect(first!.tools!.map((tool) => tool.name)).toEqual(["search_docs", "forecast"]);
    expect(first!.messages).toEqual([{ role: "user", content: "Task: What colour is the sky, and the weather in Gwangju?" }]);
    expect(second!.messages!.slice(1)).toEqual([
      { role: "assistant", content: "", toolCalls: [expect.objectContaining({ id: "call_1_1", name: "search_docs" }), expect.objectContaining({ id: "call_1_2", name: "forecast" })] },
      { role: "tool", toolCallId: "call_1_1", name: "search_docs", content: expect.stringContaining("Rayleigh scattering") },
      { role: "tool", toolCallId: "call_1_2", name: "forecast", content: "sunny" },
    ]);
    const agentRun = run.of("NODE_COMPLETED").find((event) => event.nodeId === "research" && event.invocation === "")!;
    expect(agentRun.description).toBe("answered in 2 steps with 2 tool calls: 27 characters");
    expect(agentRun.details.usage!.totalTokens).toBeGreaterThan(0);
  });

  it("tells the model when a call fails — an unknown tool, arguments that are not JSON, the tool's own error — and goes on", async () => {
    const model = new RecordingOffline();
    const mcp = weather(() => ({ isError: true, content: "no forecast for Atlantis" }));
    const replies = [calls(["lookup", {}], ["forecast", "{city: Gwangju"], ["forecast", { city: "Atlantis" }], ["forecast", { town: "Gwangju" }]), "I could not find out."];
    const run = await runPipeline({ workflow: agentWorkflow(replies), providers: [model], tools: { knowledgeBases: docs(), mcp } });
    expect(run.outcome.status).toBe("COMPLETED");
    const byCall = <T extends { invocation: string }>(events: T[]) => [...events].sort((a, b) => a.invocation.localeCompare(b.invocation));
    expect(byCall(run.of("TOOL_RESULT")).map(({ ok, summary }) => [ok, summary.split(":")[0]])).toEqual([
      [false, "TOOL_NOT_FOUND"],
      [false, "TOOL_ARGUMENTS_INVALID"],
      [false, "TOOL_FAILED"],
      [false, "TOOL_ARGUMENTS_INVALID"],
    ]);
    expect(byCall(run.of("NODE_FAILED")).map((event) => [event.invocation, event.error.code])).toEqual([
      ["research@1.1", "TOOL_NOT_FOUND"],
      ["research@1.2", "TOOL_ARGUMENTS_INVALID"],
      ["research@1.3", "TOOL_FAILED"],
      ["research@1.4", "TOOL_ARGUMENTS_INVALID"],
    ]);
    expect(run.of("TOOL_CALLED")[1]!.arguments).toBe("{city: Gwangju");
    expect(mcp.calls).toEqual([{ server: "weather", tool: "forecast", args: { city: "Atlantis" } }]);
    const toolMessages = model.requests[1]!.messages!.filter((message) => message.role === "tool");
    expect(JSON.parse((toolMessages[2] as { content: string }).content)).toEqual({ error: { code: "TOOL_FAILED", message: 'forecast failed: no forecast for Atlantis' } });
  });

  it("refuses a tool's result over a node output's limit before reading it, and tells the model", async () => {
    const model = new RecordingOffline();
    const mcp = weather(() => "x".repeat(20_000));
    const run = await runPipeline({ workflow: agentWorkflow([calls(["forecast", { city: "Gwangju" }]), "No forecast."]), providers: [model], tools: { knowledgeBases: docs(), mcp }, options: { limits: { maxNodeOutputBytes: 10_000 } } });
    expect(run.outcome.status).toBe("COMPLETED");
    expect(run.of("NODE_FAILED").map((event) => [event.invocation, event.error.code])).toEqual([["research@1.1", "OUTPUT_TOO_LARGE"]]);
    const answer = model.requests[1]!.messages!.find((message) => message.role === "tool") as { content: string };
    expect(answer.content.length).toBeLessThan(1_000);
  });

  it("refuses an MCP tool whose input schema nests deeper than the run's values may", async () => {
    let deep: JsonValue = { type: "string" };
    for (let level = 0; level < 80; level += 1) deep = { type: "object", properties: { inner: deep } };
    const mcp = new FakeMcpTools({ weather: [{ name: "forecast", description: "The forecast.", inputSchema: deep as Record<string, JsonValue>, call: () => "sunny" }] });
    const run = await runPipeline({ workflow: agentWorkflow(["unused"]), providers: [new RecordingOffline()], tools: { knowledgeBases: docs(), mcp } });
    expect(run.outcome.status).toBe("FAILED");
    expect(run.of("NODE_FAILED").map((event) => event.error.code)).toEqual(["VALUE_TOO_DEEP"]);
  });

  it("executes at most maxCallsPerStep calls of one reply and answers the others with TOOL_CALLS_LIMIT", async () => {
    const model = new RecordingOffline();
    const mcp = weather();
    const many = Array.from({ length: TOOL_LIMITS.maxCallsPerStep + 3 }, (_, k): [string, JsonValue] => ["forecast", { city: `city ${k}` }]);
    const run = await runPipeline({ workflow: agentWorkflow([calls(...many), "Done."]), providers: [model], tools: { knowledgeBases: docs(), mcp } });
    expect(run.outcome.status).toBe("COMPLETED");
    expect(mcp.calls).toHaveLength(TOOL_LIMITS.maxCallsPerStep);
    expect(run.of("TOOL_CALLED")).toHaveLength(TOOL_LIMITS.maxCallsPerStep);
    const answers = model.requests[1]!.messages!.filter((message) => message.role === "tool") as { content: string }[];
    expect(answers).toHaveLength(many.length);
    expect(answers.slice(TOOL_LIMITS.maxCallsPerStep).map((answer) => (JSON.parse(answer.content) as { error: { code: string } }).error.code)).toEqual(["TOOL_CALLS_LIMIT", "TOOL_CALLS_LIMIT", "TOOL_CALLS_LIMIT"]);
  });

  it("fails with AGENT_STEPS_EXHAUSTED when the model still calls tools at maxSteps, without running those calls", async () => {
    const mcp = weather();
    const run = await runPipeline({ workflow: agentWorkflow([calls(["forecast", { city: "Gwangju" }])], { maxSteps: 3 }), tools: { knowledgeBases: docs(), mcp } });
    expect(run.outcome.status).toBe("FAILED");
    expect(run.of("NODE_FAILED").find((event) => event.nodeId === "research" && event.invocation === "")!.error.code).toBe("AGENT_STEPS_EXHAUSTED");
    expect(run.of("AGENT_STEP").map((event) => event.step)).toEqual([1, 2, 3]);
    expect(mcp.calls).toHaveLength(2);
  });

  it("with a schema, answers JSON that matches it, telling the model what was wrong until it does", async () => {
    const schema = { type: "object", properties: { colour: { type: "string" } }, required: ["colour"], additionalProperties: false };
    const model = new RecordingOffline();
    const run = await runPipeline({ workflow: agentWorkflow(["blue", { hue: "blue" }, { colour: "blue" }], { schema, tools: [] }), providers: [model] });
    expect(run.outcome.status).toBe("COMPLETED");
    expect(run.of("NODE_COMPLETED").find((event) => event.nodeId === "research")!.value).toEqual({ colour: "blue" });
    expect(model.requests[0]!.messages![0]).toEqual({ role: "system", content: expect.stringContaining('"required":["colour"]') });
    expect(model.requests[0]!.tools).toBeUndefined();
    expect(model.requests[2]!.messages!.at(-1)).toEqual({ role: "user", content: expect.stringContaining("does not match the schema") });

    const failing = await runPipeline({ workflow: agentWorkflow(["blue"], { schema, maxSteps: 2, tools: [] }) });
    expect(failing.of("NODE_FAILED")[0]!.error.code).toBe("RESULT_PARSE_ERROR");
  });

  it("calls a published workflow with its input nodes as parameters, as a child of the call", async () => {
    const workflows = new FakeWorkflowTools({ wf_sum: { name: "summarize", inputs: ["text"], run: (args) => `summary of ${String(args["text"])}` } });
    const tools = [{ type: "workflow", workflowId: "wf_sum", version: 3 }];
    const run = await runPipeline({ workflow: agentWorkflow([calls(["summarize", { text: "a long text" }]), "done"], { tools }), tools: { workflows } });
    expect(run.outcome.status).toBe("COMPLETED");
    expect(workflows.calls).toEqual([{ workflowId: "wf_sum", version: 3, arguments: { text: "a long text" }, caller: { runId: "run-1", nodeId: "research", invocation: "research@1.1" }, cost: expect.anything() }]);
    expect(run.of("TOOL_RESULT")[0]).toMatchObject({ ok: true, summary: "summary of a long text" });
  });

  it("names its calls under its own invocation inside a map, and counts them against the run's budget", async () => {
    const inner = pipeline()
      .input("bin")
      .model("ask", "agent", [calls(["forecast", { city: "{item}" }]), "ok"], { tools: [{ type: "mcp", server: "weather", tool: "forecast" }] })
      .output("bout")
      .edges("bin>ask", "ask>bout");
    const workflow = pipeline().input("q", "go").node("each", "map", { items: '["a", "b"]', body: body(inner) }).output("out").edges("q>each", "each>out").build();
    const run = await runPipeline({ workflow, tools: { mcp: weather() } });
    expect(run.outcome.status).toBe("COMPLETED");
    expect(run.of("TOOL_CALLED").map((event) => event.invocation).sort()).toEqual(["each[0]/ask@1.1", "each[1]/ask@1.1"]);

    const tight = pipeline().input("q", "go").model("research", "agent", [calls(["forecast", { city: "a" }], ["forecast", { city: "b" }]), "ok"], { tools: [{ type: "mcp", server: "weather" }] }).output("out").edges("q>research", "research>out").maxInvocations(3).build();
    const spent = await runPipeline({ workflow: tight, tools: { mcp: weather() } });
    expect(spent.outcome.error).toMatchObject({ code: "RUN_BUDGET_EXCEEDED" });
    expect(spent.of("NODE_STARTED").filter((event) => event.invocation !== "")).toHaveLength(1);
    expect(spent.of("NODE_FAILED").map((event) => event.invocation)).toEqual(["research@1.1", ""]);
  });

  it("when the run is cancelled during a call, fails the call and the agent, leaving no call running", async () => {
    const controller = new AbortController();
    const hanging = weather(() => new Promise(() => undefined));
    const started = startPipeline({ workflow: agentWorkflow([calls(["forecast", { city: "Gwangju" }]), "never"]), tools: { knowledgeBases: docs(), mcp: hanging }, signal: controller.signal, onEvent: (event) => event.type === "TOOL_CALLED" && controller.abort() });
    const run = await started.done;
    expect(run.outcome.status).toBe("CANCELLED");
    expect(run.trace.slice(-4)).toEqual(["NODE_FAILED research@research@1.1", "NODE_FAILED research", "NODE_SKIPPED out", "RUN_CANCELLED"]);
  });
});

describe("agent node after a crash", () => {
  /** Four steps: one call, two calls, two calls, an answer. */
  const replies = [calls(["count", { n: 1 }]), calls(["count", { n: 2 }], ["count", { n: 3 }]), calls(["count", { n: 4 }], ["count", { n: 5 }]), "counted"];
  const workflow = () =>
    pipeline().input("q", "count").model("research", "agent", replies, { tools: [{ type: "mcp", server: "counter" }] }).output("out").edges("q>research", "research>out").build();
  const counter = () => new FakeMcpTools({ counter: [{ name: "count", call: (args) => `counted ${String(args["n"])}` }] });

  it("replays the steps and the completed calls an earlier attempt stored, wherever it stopped, and never repeats them", async () => {
    const reference = await runPipeline({ workflow: workflow(), tools: { mcp: counter() } });
    expect(reference.outcome.result).toBe("counted");
    for (let cut = 1; cut < reference.events.length - 1; cut += 1) {
      const stored = reference.events.slice(0, cut);
      const record = resumeFromEvents(stored.map((event) => ({ ...event }) as unknown as { type: string } & Record<string, unknown>));
      const model = new RecordingOffline();
      const tools = counter();
      const resumed = await runPipeline({ workflow: workflow(), providers: [model], tools: { mcp: tools }, resume: { attempt: 2, lastSeq: cut, record } });
      const context = `cut after event ${cut} (${reference.trace[cut - 1]})`;
      expect(resumed.outcome.result, context).toBe("counted");
      const all = [...stored, ...resumed.events];
      expect(all.map((event) => event.seq), context).toEqual(all.map((_, k) => k + 1));
      const stepsStored = stored.filter((event) => event.type === "AGENT_STEP").length;
      expect(model.requests.length, context).toBe(4 - stepsStored);
      const callsFinished = stored.filter((event) => event.type === "NODE_COMPLETED" && event.invocation.includes("@")).length;
      expect(tools.calls.length, context).toBe(5 - callsFinished);
      const keys = all.map((event) => eventKey(event as unknown as { type: string })).filter((key): key is string => key !== null);
      expect(new Set(keys).size, context).toBe(keys.length);
    }
  });
});
