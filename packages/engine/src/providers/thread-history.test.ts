import { describe, expect, it } from "vitest";
import { fitMessages, formatTranscript, retainMessages, runQuestionText, THREAD_LIMITS, turnMessages, type ThreadMessage } from "./thread-history.js";

const message = (content: string, createdAt = "2026-11-20T10:00:00.000Z", role: ThreadMessage["role"] = "user"): ThreadMessage => ({ role, content, createdAt });

describe("thread messages", () => {
  it("a turn adds the question, then the answer, stamped with the run and the time", () => {
    const at = new Date("2026-11-20T10:00:00Z");
    expect(turnMessages({ runId: "r1", question: "why?", answer: "because", at })).toEqual([
      { role: "user", content: "why?", createdAt: "2026-11-20T10:00:00.000Z", runId: "r1" },
      { role: "assistant", content: "because", createdAt: "2026-11-20T10:00:00.000Z", runId: "r1" },
    ]);
  });

  it("a turn cuts a message over the length limit and marks the cut", () => {
    const [, answer] = turnMessages({ runId: "r", question: "q", answer: "x".repeat(THREAD_LIMITS.maxMessageLength + 10), at: new Date(0) });
    expect(answer?.content).toHaveLength(THREAD_LIMITS.maxMessageLength);
    expect(answer?.content.endsWith("…")).toBe(true);
  });

  it("the question is the run's input contents in input order, blank ones left out", () => {
    expect(runQuestionText({ a: "first", b: "  ", c: { n: 1 } })).toBe('first\n{"n":1}');
  });

  it("the transcript names the speakers, oldest first", () => {
    expect(formatTranscript([message("hi"), message("hello", undefined, "assistant")])).toBe("User: hi\n\nAssistant: hello");
    expect(formatTranscript([])).toBe("");
  });

  it("fitting keeps the newest messages within both limits", () => {
    const messages = ["aaaa", "bbbbbbbb", "cccc"].map((text) => message(text)); // 1, 2 and 1 tokens
    expect(fitMessages(messages, { maxMessages: 2 }).map((m) => m.content)).toEqual(["bbbbbbbb", "cccc"]);
    expect(fitMessages(messages, { maxMessages: 10, maxTokens: 3 }).map((m) => m.content)).toEqual(["bbbbbbbb", "cccc"]);
    expect(fitMessages(messages, { maxMessages: 10, maxTokens: 2 }).map((m) => m.content)).toEqual(["cccc"]);
    expect(fitMessages(messages, { maxMessages: 10, maxTokens: null })).toHaveLength(3);
  });

  it("retention drops messages older than the age limit, then all but the newest maxMessages", () => {
    const now = new Date("2026-11-20T12:00:00Z");
    const messages = [message("old", "2026-11-18T12:00:00Z"), message("a", "2026-11-20T09:00:00Z"), message("b", "2026-11-20T10:00:00Z"), message("c", "2026-11-20T11:00:00Z")];
    expect(retainMessages(messages, { maxMessages: null, maxAgeSeconds: 86_400 }, now).map((m) => m.content)).toEqual(["a", "b", "c"]);
    expect(retainMessages(messages, { maxMessages: 2, maxAgeSeconds: 86_400 }, now).map((m) => m.content)).toEqual(["b", "c"]);
    expect(retainMessages(messages, { maxMessages: null, maxAgeSeconds: null }, now)).toHaveLength(4);
  });
});
