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

  it("grants an exclusive slot once nothing else holds one, and nothing else while it is held", async () => {
    const limiter = new ConcurrencyLimiter(3);
    const live = new AbortController().signal;
    const alone = limiter.exclusive();
    const order: string[] = [];
    expect(limiter.tryAcquire()).toBe(true);
    expect(limiter.tryAcquire()).toBe(true);
    expect(alone.tryAcquire()).toBe(false);
    const exclusive = alone.acquire(live).then(() => order.push("exclusive"));
    // Queued behind the exclusive waiter, though a slot is free: first come, first served.
    const after = limiter.acquire(live).then(() => order.push("after"));
    expect(limiter.tryAcquire()).toBe(false);
    limiter.release();
    await Promise.resolve();
    expect(order).toEqual([]);
    limiter.release();
    await exclusive;
    expect([limiter.active, order]).toEqual([3, ["exclusive"]]);
    alone.release();
    await after;
    expect([limiter.active, order]).toEqual([1, ["exclusive", "after"]]);
    limiter.release();
    expect(alone.tryAcquire()).toBe(true);
    alone.release();
    expect(limiter.active).toBe(0);
  });

  it("lets the waiters behind an exclusive waiter go when its signal aborts", async () => {
    const limiter = new ConcurrencyLimiter(2);
    const live = new AbortController().signal;
    limiter.tryAcquire();
    const controller = new AbortController();
    const exclusive = limiter.exclusive().acquire(controller.signal);
    const behind = limiter.acquire(live);
    controller.abort(new Error("cancelled"));
    await expect(exclusive).rejects.toThrow("cancelled");
    await behind;
    expect([limiter.active, limiter.waiting]).toEqual([2, 0]);
  });

  it("refuses a limit below one", () => {
    expect(() => new ConcurrencyLimiter(0)).toThrow(expect.objectContaining({ code: "INVALID_CONCURRENCY" }));
  });
});
