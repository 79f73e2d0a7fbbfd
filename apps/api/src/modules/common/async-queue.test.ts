import { describe, expect, test } from "vitest";
import { AsyncQueue } from "./async-queue.js";

describe("AsyncQueue", () => {
  test("delivers pushed items in order, then ends", async () => {
    const queue = new AsyncQueue<number>();
    queue.push(1);
    queue.push(2);
    queue.end();
    const seen: number[] = [];
    for await (const item of queue) seen.push(item);
    expect(seen).toEqual([1, 2]);
  });

  test("return() while the consumer waits ends the wait at once and runs onClose once", async () => {
    let closed = 0;
    const queue = new AsyncQueue<number>(() => (closed += 1));
    const waiting = queue.next();
    await queue.return();
    expect(await waiting).toEqual({ value: undefined, done: true });
    queue.push(3);
    await queue.return();
    expect(closed).toBe(1);
    expect(await queue.next()).toEqual({ value: undefined, done: true });
  });

  test("fail() delivers the items already pushed, then the error", async () => {
    const queue = new AsyncQueue<string>();
    queue.push("a");
    queue.fail(new Error("database gone"));
    expect(await queue.next()).toEqual({ value: "a", done: false });
    await expect(queue.next()).rejects.toThrow("database gone");
  });
});
