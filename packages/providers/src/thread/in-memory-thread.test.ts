import { describe, expect, it } from "vitest";
import { InMemoryThread } from "./in-memory-thread.js";

const live = () => new AbortController().signal;

describe("InMemoryThread", () => {
  it("records a completed run's question and answer and its thread channels, and serves the newest messages", async () => {
    let now = new Date("2026-11-20T10:00:00Z");
    const thread = new InMemoryThread({}, { maxMessages: null, maxAgeSeconds: null }, () => now);
    thread.recordTurn({ runId: "r1", question: "weather in Seoul?", answer: "Sunny.", state: { cities: ["Seoul"] } });
    now = new Date("2026-11-20T10:05:00Z");
    thread.recordTurn({ runId: "r2", question: "and Busan?", answer: "Rain.", state: { cities: ["Seoul", "Busan"] } });
    expect((await thread.recentMessages(3, live())).map((message) => [message.role, message.content, message.runId])).toEqual([
      ["assistant", "Sunny.", "r1"],
      ["user", "and Busan?", "r2"],
      ["assistant", "Rain.", "r2"],
    ]);
    expect(thread.state).toEqual({ cities: ["Seoul", "Busan"] });
    expect(thread.snapshot().messages[2]?.createdAt).toBe("2026-11-20T10:05:00.000Z");
  });

  it("applies retention when loaded and after every turn", () => {
    const now = new Date("2026-11-20T10:00:00Z");
    const old = { role: "user" as const, content: "last week", createdAt: "2026-11-13T10:00:00.000Z" };
    const thread = new InMemoryThread({ messages: [old] }, { maxMessages: 3, maxAgeSeconds: 86_400 }, () => now);
    expect(thread.snapshot().messages).toEqual([]);
    thread.recordTurn({ runId: "r1", question: "one", answer: "1", state: {} });
    thread.recordTurn({ runId: "r2", question: "two", answer: "2", state: {} });
    expect(thread.snapshot().messages.map((message) => message.content)).toEqual(["1", "two", "2"]);
  });
});
