import { describe, expect, it } from "vitest";
import { ProviderError } from "../model/errors.js";
import { OfflineLlmProvider } from "../providers/offline-llm-provider.js";
import { FakeLlmProvider, resultJson } from "../testing/fake-llm-provider.js";
import { run } from "../testing/run-harness.js";
import { workflow } from "../testing/workflow-builder.js";
import { DEFAULT_RETRY_OPTIONS, retryDelay } from "./retry-policy.js";

const unavailable = (retryAfterMs?: number) =>
  new ProviderError("PROVIDER_RATE_LIMITED", "429 Too Many Requests", { retryable: true, status: 429, retryAfterMs });

const options = { ...DEFAULT_RETRY_OPTIONS, attempts: 5, baseDelayMs: 100, maxDelayMs: 1000 };

describe("retryDelay", () => {
  it("doubles the delay per attempt, with half of it jittered", () => {
    const low = [0, 1, 2, 3].map((attempt) => retryDelay(unavailable(), attempt, { options, random: () => 0 }));
    const high = [0, 1, 2, 3].map((attempt) => retryDelay(unavailable(), attempt, { options, random: () => 0.999999 }));
    expect(low).toEqual([50, 100, 200, 400]);
    expect(high).toEqual([100, 200, 400, 800]);
  });

  it("caps the delay at maxDelayMs", () => {
    expect(retryDelay(unavailable(), 3, { options: { ...options, maxDelayMs: 300 }, random: () => 0.999999 })).toBe(300);
  });

  it("waits exactly as long as the provider's Retry-After asks", () => {
    expect(retryDelay(unavailable(1234), 0, { options, random: () => 0.5 })).toBe(1234);
  });

  it("gives up when Retry-After asks for more than maxRetryAfterMs", () => {
    expect(retryDelay(unavailable(120_000), 0, { options, random: () => 0.5 })).toBeNull();
  });

  it("does not retry permanent errors, other errors, or past the last attempt", () => {
    const permanent = new ProviderError("PROVIDER_AUTH_FAILED", "401", { retryable: false });
    expect(retryDelay(permanent, 0, { options, random: () => 0 })).toBeNull();
    expect(retryDelay(new Error("x"), 0, { options, random: () => 0 })).toBeNull();
    expect(retryDelay(unavailable(), 4, { options, random: () => 0 })).toBeNull();
  });
});

/*
 *  in ──> g ──> out
 */
const chain = (attributes = {}) =>
  workflow().input("in").model("g", "generation", attributes).output().edges("in>g", "g>out").build();

describe("retries in a run", () => {
  it("retries a transient failure after backoff delays taken from the injected sleep", async () => {
    const delays: number[] = [];
    let calls = 0;
    const provider = new FakeLlmProvider((request) => {
      calls += 1;
      if (calls <= 2) throw unavailable();
      return resultJson(request.prompt);
    });
    const { outcome, of } = await run({
      workflow: chain(),
      provider,
      options: { retry: { attempts: 3, baseDelayMs: 100 }, random: () => 0.5, sleep: async (ms) => void delays.push(ms) },
    });
    expect(outcome.status).toBe("COMPLETED");
    expect(delays).toEqual([75, 150]);
    expect(of("WARNING").map((event) => event.code)).toEqual(["PROVIDER_RETRY", "PROVIDER_RETRY"]);
    expect(of("WARNING")[0]!.message).toMatch(/retrying in 75 ms \(attempt 2 of 3\)/);
    expect(of("NODE_COMPLETED")[1]!.details.retries).toBe(2);
    // Each attempt is a call of its own that names its run, node invocation and attempt (traces use it).
    expect(provider.calls.map((call) => call.request.origin)).toEqual([1, 2, 3].map((attempt) => ({ runId: "run-1", nodeId: "g", invocation: "", attempt })));
  });

  it("honours Retry-After", async () => {
    const delays: number[] = [];
    let calls = 0;
    const provider = new FakeLlmProvider((request) => {
      calls += 1;
      if (calls === 1) throw unavailable(2500);
      return resultJson(request.prompt);
    });
    await run({ workflow: chain(), provider, options: { sleep: async (ms) => void delays.push(ms) } });
    expect(delays).toEqual([2500]);
  });

  it("fails the node with the provider's error once the attempts are used up", async () => {
    const provider = new FakeLlmProvider(() => {
      throw unavailable();
    });
    const { of, outcome } = await run({ workflow: chain(), provider, options: { retry: { attempts: 4 } } });
    expect(provider.calls).toHaveLength(4);
    expect(of("NODE_FAILED")[0]).toMatchObject({ error: { code: "PROVIDER_RATE_LIMITED" }, details: { retries: 3 } });
    expect(outcome.status).toBe("FAILED");
  });

  it("does not retry a permanent failure", async () => {
    const provider = new FakeLlmProvider(() => {
      throw new ProviderError("PROVIDER_AUTH_FAILED", "bad key", { retryable: false, status: 401 });
    });
    const { of } = await run({ workflow: chain(), provider });
    expect(provider.calls).toHaveLength(1);
    expect(of("NODE_FAILED")[0]!.error.code).toBe("PROVIDER_AUTH_FAILED");
  });

  it("gets the offline flaky model through with the default three attempts", async () => {
    const wf = chain({ provider: "offline", model: "flaky" });
    const { outcome, of } = await run({ workflow: wf, provider: new OfflineLlmProvider() });
    expect(outcome.result).toBe("in");
    expect(of("NODE_COMPLETED")[1]!.details.retries).toBe(2);
  });
});
