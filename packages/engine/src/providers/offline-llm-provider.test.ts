import { describe, expect, it } from "vitest";
import { isAbortError, ProviderError } from "../model/errors.js";
import { parseResult } from "../result-parser/result-parser.js";
import type { LlmRequest } from "./llm-provider.js";
import { OfflineLlmProvider } from "./offline-llm-provider.js";

function request(model: string, overrides: Partial<LlmRequest> = {}): LlmRequest {
  return { model, prompt: "prompt", json: true, params: {}, inputData: "hello\n\nworld", ...overrides };
}

const live = () => new AbortController().signal;

describe("OfflineLlmProvider", () => {
  it("says it is not a language model and marks every model as a test model", () => {
    const provider = new OfflineLlmProvider();
    expect(provider.id).toBe("offline");
    expect(provider.label).toBe("Offline test models (not a language model)");
    expect(provider.models.map((model) => model.id)).toEqual(["echo", "invalid-json", "flaky", "scripted"]);
    expect(provider.models.every((model) => model.testOnly)).toBe(true);
  });

  it("echo answers in the ResultParser's format with the input data as output", async () => {
    const reply = await new OfflineLlmProvider().complete(request("echo"), live());
    expect(parseResult(reply.text)).toEqual({
      description: "echo of 12 characters of input data",
      output: "hello\n\nworld",
    });
    expect(reply.usage).toEqual({ promptTokens: 2, completionTokens: Math.ceil(reply.text.length / 4), totalTokens: 2 + Math.ceil(reply.text.length / 4) });
  });

  it("invalid-json answers with text the parser refuses", async () => {
    const reply = await new OfflineLlmProvider().complete(request("invalid-json"), live());
    expect(() => parseResult(reply.text)).toThrow(/no JSON object/);
  });

  it("flaky fails twice per prompt with a retryable error, then echoes", async () => {
    const provider = new OfflineLlmProvider();
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      const error = await provider.complete(request("flaky"), live()).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).retryable).toBe(true);
    }
    await expect(provider.complete(request("flaky", { prompt: "another node" }), live())).rejects.toThrow(/1 of 2/);
    expect(parseResult((await provider.complete(request("flaky"), live())).text).output).toBe("hello\n\nworld");
  });

  it("waits params.delayMs through the injected sleep", async () => {
    const waits: number[] = [];
    const provider = new OfflineLlmProvider({ sleep: async (ms) => void waits.push(ms) });
    await provider.complete(request("echo", { params: { delayMs: 25 } }), live());
    expect(waits).toEqual([25]);
  });

  it("stops waiting when the call is aborted", async () => {
    const controller = new AbortController();
    const pending = new OfflineLlmProvider().complete(request("echo", { params: { delayMs: 60_000 } }), controller.signal);
    controller.abort();
    const error = await pending.catch((caught: unknown) => caught);
    expect(isAbortError(error)).toBe(true);
  });

  it("streams the reply in a few chunks and ends with the whole reply", async () => {
    const chunks: string[] = [];
    let done = "";
    for await (const chunk of new OfflineLlmProvider().stream(request("echo"), live())) {
      if (chunk.type === "token") chunks.push(chunk.text);
      else done = chunk.reply.text;
    }
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join("")).toBe(done);
  });

  it("refuses a model it does not have", async () => {
    await expect(new OfflineLlmProvider().complete(request("gpt"), live())).rejects.toMatchObject({
      code: "PROVIDER_BAD_REQUEST",
      retryable: false,
    });
  });
});

describe("the scripted model (SPEC-V2 §9)", () => {
  const scripted = (replies: unknown[], invocationIndex?: number) => ({
    model: "scripted",
    prompt: "p",
    json: false,
    params: { replies },
    inputData: "",
    ...(invocationIndex === undefined ? {} : { invocationIndex }),
  });

  it("answers the k-th invocation with replies[k], and the last reply from then on", async () => {
    const provider = new OfflineLlmProvider();
    const texts = await Promise.all([0, 1, 2, 5].map(async (k) => (await provider.complete(scripted(["a", { b: 1 }, "c"], k), live())).text));
    expect(texts).toEqual(["a", '{"b":1}', "c", "c"]);
  });

  it("refuses to answer without replies", async () => {
    await expect(new OfflineLlmProvider().complete(scripted([]), live())).rejects.toMatchObject({ code: "PROVIDER_BAD_REQUEST", retryable: false });
  });

  it("answers from the first params.match entry whose pattern finds the prompt, else from params.replies", async () => {
    const provider = new OfflineLlmProvider();
    const match = [
      { pattern: "^(hi|안녕)", replies: ["simple"] },
      { pattern: "이전|earlier", replies: ["history", "history again"] },
    ];
    const answer = async (prompt: string, invocationIndex = 0) =>
      (await provider.complete({ ...scripted(["rag"], invocationIndex), params: { replies: ["rag"], match }, prompt }, live())).text;
    expect(await answer("안녕하세요")).toBe("simple");
    expect(await answer("HI there")).toBe("simple");
    expect(await answer("what did I ask earlier?", 1)).toBe("history again");
    expect(await answer("explain hybrid search")).toBe("rag");
  });

  it("refuses a params.match entry without a pattern or replies, or with a broken pattern", async () => {
    const provider = new OfflineLlmProvider();
    const ask = (match: unknown) => provider.complete({ ...scripted(["x"]), params: { replies: ["x"], match } }, live());
    await expect(ask([{ pattern: "a" }])).rejects.toMatchObject({ code: "PROVIDER_BAD_REQUEST", message: expect.stringMatching(/params\.match\[0\] needs/) });
    await expect(ask([{ pattern: "(", replies: ["y"] }])).rejects.toMatchObject({ code: "PROVIDER_BAD_REQUEST", message: expect.stringMatching(/RE2 syntax/) });
    await expect(ask("a")).rejects.toMatchObject({ code: "PROVIDER_BAD_REQUEST" });
  });
});
