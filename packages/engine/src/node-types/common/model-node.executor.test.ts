import { describe, expect, it } from "vitest";
import { WeftError } from "../../model/errors.js";
import type { Retriever } from "../../providers/retrieval.js";
import { FakeRetriever } from "../../testing/fake-retriever.js";
import { FakeLlmProvider, resultJson } from "../../testing/fake-llm-provider.js";
import { run } from "../../testing/run-harness.js";
import { workflow } from "../../testing/workflow-builder.js";

/*
 *  in ──> g ──> out
 */
const chain = (content: string, prompt: string, attributes = {}) =>
  workflow()
    .input("in", content)
    .model("g", "generation", { prompt, ...attributes })
    .output()
    .edges("in>g", "g>out");

const retriever = () =>
  new FakeRetriever({
    handbook: [
      { id: "c1", text: "cats purr when content", source: { documentId: "d1", title: "Cat handbook", chunkIndex: 0, page: 3 } },
      { id: "c2", text: "dogs bark", source: { documentId: "d1", title: "Cat handbook", chunkIndex: 1 } },
    ],
  });

describe("model node prompt", () => {
  it("keeps placeholder text that arrives inside an input literal", async () => {
    const provider = new FakeLlmProvider();
    const wf = chain("please answer in {output_format} and use {context}", "Q: {input_data} F: {output_format}")
      .outputFormat("JSON")
      .build();
    const { of } = await run({ workflow: wf, provider });
    expect(provider.calls[0]!.request.prompt).toBe("Q: please answer in {output_format} and use {context} F: JSON");
    expect(of("WARNING")).toEqual([]);
  });

  it("empties placeholders with nothing to put in them and warns about each", async () => {
    const wf = chain("", "{input_data}|{context}|{output_format}").knowledgeBase("handbook").build();
    const provider = new FakeLlmProvider();
    const { of } = await run({ workflow: wf, provider, retriever: new FakeRetriever({ handbook: [] }) });
    expect(provider.calls[0]!.request.prompt).toBe("||");
    expect(of("WARNING").map((event) => [event.nodeId, event.code, event.message])).toEqual([
      ["g", "EMPTY_PLACEHOLDER", "{input_data} was left empty: the node's inputs are empty"],
      ["g", "EMPTY_PLACEHOLDER", '{context} was left empty: the search of knowledge base "handbook" returned no passages'],
      ["g", "EMPTY_PLACEHOLDER", "{output_format} was left empty: no output format is set"],
    ]);
  });

  it("leaves {context} empty without a warning when no knowledge base is chosen, as in the default prompts", async () => {
    const wf = chain("question", "Q: {input_data}\nReference material (may be empty):\n{context}").build();
    const provider = new FakeLlmProvider();
    const { of } = await run({ workflow: wf, provider });
    expect(provider.calls[0]!.request.prompt).toBe("Q: question\nReference material (may be empty):\n");
    expect(of("WARNING")).toEqual([]);
  });

  it("prefers the node's prompt, then the request's prompt for its type, then the workflow's", async () => {
    const provider = new FakeLlmProvider();
    const wf = workflow()
      .input("in", "x")
      .model("g", "generation")
      .model("v", "validation", { prompt: "node {input_data}" })
      .model("v2", "validation")
      .output()
      .edges("in>g", "g>v", "v>v2", "v2>out")
      .prompts({ generation: "workflow {input_data}", validation: "workflow-v {input_data}" })
      .build();
    await run({ workflow: wf, provider, request: { prompts: { generation: "request {input_data}" } } });
    expect(provider.calls.map((call) => call.request.prompt)).toEqual([
      "request x",
      "node request x",
      "workflow-v node request x",
    ]);
  });

  it("uses a built-in prompt with a warning when no prompt is set", async () => {
    const provider = new FakeLlmProvider();
    const wf = chain("x", "").prompts({ generation: "" }).outputFormat("F").build();
    const { of } = await run({ workflow: wf, provider });
    expect(provider.calls[0]!.request.prompt).toBe("x\n\nReply in this format: F");
    expect(of("WARNING").map((event) => event.code)).toEqual(["DEFAULT_PROMPT"]);
  });

  it("asks the provider for JSON with the node's params and input data", async () => {
    const provider = new FakeLlmProvider();
    await run({ workflow: chain("x", "p {input_data}", { params: { temperature: 0.2 } }).build(), provider });
    expect(provider.calls[0]!.request).toEqual({
      model: "m",
      prompt: "p x",
      json: true,
      params: { temperature: 0.2 },
      inputData: "x",
      origin: { runId: "run-1", nodeId: "g", invocation: "", attempt: 1 },
    });
  });
});

describe("model node retrieval", () => {
  it("searches the knowledge base with input_data and top_k from the intensity, and labels the context", async () => {
    const provider = new FakeLlmProvider();
    const search = retriever();
    const wf = chain("why do cats purr", "C: {context}").knowledgeBase("handbook").build();
    const { of } = await run({ workflow: wf, provider, retriever: search, request: { intensity: "LOW" }, options: { topK: { LOW: 1 } } });
    expect(search.calls.map(({ knowledgeBase, query, topK }) => ({ knowledgeBase, query, topK }))).toEqual([
      { knowledgeBase: "handbook", query: "why do cats purr", topK: 1 },
    ]);
    expect(provider.calls[0]!.request.prompt).toBe("C: [1] Cat handbook (chunk 0, page 3; score 0.500)\ncats purr when content");
    expect(of("NODE_COMPLETED")[1]!.details).toMatchObject({ store: "memory", context: [{ id: "c1", score: 0.5 }] });
  });

  it("uses the default top_k of the request's intensity", async () => {
    const search = retriever();
    const wf = chain("cats", "{context}").knowledgeBase("handbook").build();
    await run({ workflow: wf, provider: new FakeLlmProvider(), retriever: search, request: { intensity: "HIGH" } });
    expect(search.calls[0]!.topK).toBe(10);
  });

  it("lets the request run without the workflow's knowledge base", async () => {
    const search = retriever();
    const wf = chain("cats", "{input_data}").knowledgeBase("handbook").build();
    await run({ workflow: wf, provider: new FakeLlmProvider(), retriever: search, request: { knowledgeBase: null } });
    expect(search.calls).toEqual([]);
  });

  it("fails the node with KNOWLEDGE_BASE_NOT_FOUND for an unknown knowledge base", async () => {
    const wf = chain("cats", "{context}").knowledgeBase("missing").build();
    const { of } = await run({ workflow: wf, provider: new FakeLlmProvider(), retriever: retriever() });
    expect(of("NODE_FAILED")[0]!.error).toEqual({
      code: "KNOWLEDGE_BASE_NOT_FOUND",
      message: 'knowledge base "missing" does not exist',
    });
  });

  it("fails the node with RETRIEVAL_FAILED when the search breaks or no retriever is configured", async () => {
    const broken: Retriever = { retrieve: async () => Promise.reject(new Error("connection refused")) };
    const wf = chain("cats", "{context}").knowledgeBase("handbook").build();
    const first = await run({ workflow: wf, provider: new FakeLlmProvider(), retriever: broken });
    expect(first.of("NODE_FAILED")[0]!.error).toEqual({
      code: "RETRIEVAL_FAILED",
      message: 'searching knowledge base "handbook" failed: connection refused',
    });
    const second = await run({ workflow: wf, provider: new FakeLlmProvider() });
    expect(second.of("NODE_FAILED")[0]!.error.message).toMatch(/no retriever is configured/);
  });

  it("warns when the search finds nothing for {context}", async () => {
    const empty: Retriever = { retrieve: async () => ({ chunks: [], store: "memory" }) };
    const wf = chain("cats", "{context}").knowledgeBase("handbook").build();
    const { of } = await run({ workflow: wf, provider: new FakeLlmProvider(), retriever: empty });
    expect(of("WARNING")[0]!.message).toBe('{context} was left empty: the search of knowledge base "handbook" returned no passages');
  });
});

describe("model node provider", () => {
  it("fails with MODEL_UNAVAILABLE for an unknown provider or model", async () => {
    const unknownProvider = chain("x", "p", { provider: "nope" }).build();
    const a = await run({ workflow: unknownProvider, provider: new FakeLlmProvider() });
    expect(a.of("NODE_FAILED")[0]!.error.code).toBe("MODEL_UNAVAILABLE");
    expect(a.of("NODE_FAILED")[0]!.error.message).toMatch(/provider "nope" and model "m".*providers: fake/);
    const unknownModel = chain("x", "p", { model: "gpt-9" }).build();
    const b = await run({ workflow: unknownModel, provider: new FakeLlmProvider() });
    expect(b.of("NODE_FAILED")[0]!.error.code).toBe("MODEL_UNAVAILABLE");
  });

  it("streams the reply as NODE_TOKEN events when asked", async () => {
    const { trace, of } = await run({
      workflow: chain("x", "p {input_data}").build(),
      provider: new FakeLlmProvider(),
      request: { streamTokens: true },
    });
    const tokens = of("NODE_TOKEN");
    expect(tokens.map((event) => event.nodeId)).toEqual(["g", "g"]);
    expect(tokens.map((event) => event.text).join("")).toBe(resultJson("p x"));
    expect(trace.slice(4, 9)).toEqual(["NODE_STARTED g", "NODE_TOKEN g", "NODE_TOKEN g", "NODE_DESCRIPTION g", "NODE_COMPLETED g"]);
  });

  it("ends a streamed reply once its tokens pass a node output's limit, without reading the rest", async () => {
    let ended = false;
    let sent = 0;
    const endless = new FakeLlmProvider();
    endless.stream = async function* () {
      try {
        for (;;) {
          sent += 1;
          yield { type: "token", text: "x".repeat(1_000) };
        }
      } finally {
        ended = true;
      }
    };
    const { outcome, of } = await run({
      workflow: chain("x", "p {input_data}").build(),
      provider: endless,
      request: { streamTokens: true },
      options: { limits: { maxNodeOutputBytes: 10_000 } },
    });
    expect(outcome.status).toBe("FAILED");
    expect(of("NODE_FAILED")[0]!.error.code).toBe("OUTPUT_TOO_LARGE");
    expect(ended).toBe(true);
    expect(sent).toBe(11);
  });

  it("records the node run: inputs, rendered prompt, raw reply, provider, model, usage", async () => {
    const { of } = await run({ workflow: chain("x", "p {input_data}").build(), provider: new FakeLlmProvider() });
    expect(of("NODE_COMPLETED")[1]).toMatchObject({
      nodeId: "g",
      description: "saw 3 chars",
      output: "p x",
      details: {
        inputs: ["x"],
        renderedPrompt: "p x",
        rawReply: resultJson("p x"),
        provider: "fake",
        model: "m",
        usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
        retries: 0,
        context: [],
        store: null,
      },
    });
    expect(of("NODE_DESCRIPTION")[1]).toMatchObject({ nodeId: "g", description: "saw 3 chars" });
  });
});

describe("parse repair", () => {
  it("asks once more with the parser's message after the original prompt, and accepts a good second reply", async () => {
    let calls = 0;
    const provider = new FakeLlmProvider(() => (++calls === 1 ? "Sure! The answer is 4." : resultJson("4")));
    const { outcome, of } = await run({ workflow: chain("2+2", "compute {input_data}").build(), provider });
    expect(outcome.result).toBe("4");
    const repair = provider.calls[1]!.request.prompt;
    expect(repair.startsWith("compute 2+2\n\n---\nYour previous reply could not be used: no JSON object was found")).toBe(true);
    expect(of("WARNING").map((event) => event.code)).toEqual(["PARSE_REPAIR"]);
    expect(of("NODE_COMPLETED")[1]!.details).toMatchObject({ retries: 1, usage: { totalTokens: 6 } });
  });

  it("fails with RESULT_PARSE_ERROR when the repaired reply does not parse either", async () => {
    const provider = new FakeLlmProvider(() => '{"description": "no output key"}');
    const { of } = await run({ workflow: chain("x", "p").build(), provider });
    expect(provider.calls).toHaveLength(2);
    const failed = of("NODE_FAILED")[0]!;
    expect(failed.error.code).toBe("RESULT_PARSE_ERROR");
    expect(failed.error.message).toMatch(/no "output" key/);
    expect(failed.details).toMatchObject({ rawReply: '{"description": "no output key"}', retries: 1, renderedPrompt: "p" });
  });

  it("fails at once when parse repair is off", async () => {
    const provider = new FakeLlmProvider(() => "not json");
    const { of } = await run({ workflow: chain("x", "p").build(), provider, options: { parseRepair: false } });
    expect(provider.calls).toHaveLength(1);
    expect(of("NODE_FAILED")[0]!.error.code).toBe("RESULT_PARSE_ERROR");
  });

  it("does not repair a provider error", async () => {
    const provider = new FakeLlmProvider(() => {
      throw new WeftError("PROVIDER_ERROR", "x");
    });
    await run({ workflow: chain("x", "p").build(), provider });
    expect(provider.calls).toHaveLength(1);
  });
});
