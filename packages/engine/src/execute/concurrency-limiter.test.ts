import { describe, expect, it } from "vitest";
import { ConcurrencyLimiter } from "./concurrency-limiter.js";

describe("ConcurrencyLimiter", () => {
  it("hands freed slots to waiters first come, first served", async () => {
    const limiter = new ConcurrencyLimiter(1);
    const order: string[] = [];
    expect(limiter.tryAcquire()).toBe(true);
    const live = new AbortController().signal;
    const first = limiter.acquire(live).then(() => order.push("first"));
    const second = limiter.acquire(live).then(() => order.push("second"));
    expect(limiter.tryAcquire()).toBe(false);
    limiter.release();
    await first;
    limiter.release();
    await second;
    expect(order).toEqual(["first", "second"]);
    limiter.release();
    expect(limiter.active).toBe(0);
  });

  it("drops a waiter whose signal aborts", async () => {
    const limiter = new ConcurrencyLimiter(1);
    limiter.tryAcquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort(new Error("gone"));
    await expect(waiting).rejects.toThrow("gone");
    expect(limiter.waiting).toBe(0);
    limiter.release();
    expect(limiter.active).toBe(0);
  });

  it("refuses a limit below one", () => {
    expect(() => new ConcurrencyLimiter(0)).toThrow(expect.objectContaining({ code: "INVALID_CONCURRENCY" }));
  });
});
