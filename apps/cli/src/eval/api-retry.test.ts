import { describe, expect, it } from "vitest";
import { ApiError } from "./api-error.js";
import { READ_RETRY, withRetry } from "./api-retry.js";

const QUICK = { ...READ_RETRY, attempts: 3, firstDelayMs: 1 };

/** A read that throws the given errors in turn, then answers "ok"; it counts its calls. */
function flaky(errors: Error[]): { read: () => Promise<string>; calls: () => number } {
  let calls = 0;
  return {
    read: () => {
      const error = errors[calls];
      calls += 1;
      return error ? Promise.reject(error) : Promise.resolve("ok");
    },
    calls: () => calls,
  };
}

describe("withRetry", () => {
  it("tries again after an unreachable API or a rate limit and answers what the later try read", async () => {
    const read = flaky([new ApiError("API_UNREACHABLE", "down"), new ApiError("RATE_LIMITED", "slow down")]);
    await expect(withRetry(read.read, QUICK)).resolves.toBe("ok");
    expect(read.calls()).toBe(3);
  });

  it("throws the last transient error once the tries are used up", async () => {
    const read = flaky([new ApiError("API_UNREACHABLE", "one"), new ApiError("API_UNREACHABLE", "two"), new ApiError("API_UNREACHABLE", "three")]);
    await expect(withRetry(read.read, QUICK)).rejects.toThrow("three");
    expect(read.calls()).toBe(3);
  });

  it("tries again after the codes the policy names, and only those", async () => {
    const locked = flaky([new ApiError("LOCKED_WHILE_RUNNING", "runs are ending")]);
    await expect(withRetry(locked.read, { codes: ["LOCKED_WHILE_RUNNING"], attempts: 2, firstDelayMs: 1 })).resolves.toBe("ok");
    const unreachable = flaky([new ApiError("API_UNREACHABLE", "down")]);
    await expect(withRetry(unreachable.read, { codes: ["LOCKED_WHILE_RUNNING"], attempts: 2, firstDelayMs: 1 })).rejects.toThrow("down");
    expect(unreachable.calls()).toBe(1);
  });

  it("throws any other refusal at once", async () => {
    const read = flaky([new ApiError("NOT_FOUND", "gone")]);
    await expect(withRetry(read.read, QUICK)).rejects.toThrow("gone");
    expect(read.calls()).toBe(1);
  });
});
