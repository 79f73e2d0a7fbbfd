import { describe, expect, test } from "vitest";
import { InFlightCalls } from "./in-flight-calls.js";

describe("in-flight tool calls", () => {
  test("a cancellation aborts the call of that caller with that request id, and no other", () => {
    const calls = new InFlightCalls();
    const mine = calls.track("key:a", 1);
    const theirs = calls.track("key:b", 1);
    const stringId = calls.track("key:a", "1");
    expect(calls.cancel("key:a", 1)).toBe(true);
    expect([mine.signal.aborted, theirs.signal.aborted, stringId.signal.aborted]).toEqual([true, false, false]);
  });

  test("a released call can no longer be cancelled", () => {
    const calls = new InFlightCalls();
    const call = calls.track("key:a", 7);
    call.release();
    expect(calls.cancel("key:a", 7)).toBe(false);
    expect(call.signal.aborted).toBe(false);
  });

  test("a cancellation matching two calls (two clients sharing a key and an id) cancels neither", () => {
    const calls = new InFlightCalls();
    const first = calls.track("key:a", 1);
    const second = calls.track("key:a", 1);
    expect(calls.cancel("key:a", 1)).toBe(false);
    expect([first.signal.aborted, second.signal.aborted]).toEqual([false, false]);
    second.release();
    expect(calls.cancel("key:a", 1)).toBe(true);
    expect(first.signal.aborted).toBe(true);
  });
});
