import { describe, expect, it } from "vitest";
import { parseWorkflowValue } from "../../document/workflow-document.parser.js";
import type { JsonValue } from "../../model/json-value.js";
import type { ThreadMessage } from "../../providers/thread-history.js";
import { builtInRegistry } from "../built-in-node-types.js";
import { validateWorkflow } from "../../rules/validate-workflow.js";
import { FakeThread } from "../../testing/fake-tools.js";
import { pipeline } from "../../testing/pipeline-builder.js";
import { runPipeline } from "../../testing/pipeline-harness.js";

const at = "2026-11-20T10:00:00.000Z";
const said = (role: ThreadMessage["role"], content: string): ThreadMessage => ({ role, content, createdAt: at });

/**
 *  q ─► past (history) ─► answer (llm: "Earlier:\n{input.past}\nNow: {input.q}") ─► out
 *  └──────────────────────────┘
 */
function withHistory(config: Record<string, JsonValue> = {}) {
  return pipeline()
    .input("q", "and in Busan?")
    .node("past", "history", config)
    .node("answer", "llm", {}, { provider: "offline", model: "echo", prompt: "Earlier:\n{input.past}\nNow: {input.q}" })
    .output("out")
    .edges("q>past", "q>answer", "past>answer", "answer>out")
    .build();
}

async function run(config: Record<string, JsonValue>, thread?: FakeThread) {
  const result = await runPipeline({ workflow: withHistory(config), ...(thread ? { tools: { thread } } : {}) });
  const completed = result.of("NODE_COMPLETED").find((event) => event.nodeId === "past");
  const answer = result.of("NODE_COMPLETED").find((event) => event.nodeId === "answer");
  return { ...result, history: completed?.value ?? completed?.output, prompt: answer?.details.renderedPrompt };
}

describe("history nodes", () => {
  const thread = () =>
    new FakeThread([said("user", "weather in Seoul?"), said("assistant", "Sunny, 21 °C."), said("user", "and tomorrow?"), said("assistant", "Rain in the afternoon.")]);

  it("keep the rules, and read the thread's newest messages into the prompt as a transcript", async () => {
    expect(validateWorkflow(withHistory(), { registry: builtInRegistry })).toEqual([]);
    const fake = thread();
    const result = await run({ maxMessages: 2 }, fake);
    expect(fake.reads).toEqual([2]);
    expect(result.history).toBe("User: and tomorrow?\n\nAssistant: Rain in the afternoon.");
    expect(result.prompt).toBe("Earlier:\nUser: and tomorrow?\n\nAssistant: Rain in the afternoon.\nNow: and in Busan?");
    expect(result.of("NODE_COMPLETED").find((event) => event.nodeId === "past")?.description).toBe("2 earlier messages of the thread");
  });

  it("give the newest messages that fit maxTokens, never with a gap", async () => {
    // "Rain in the afternoon." is 22 characters (6 tokens), "and tomorrow?" 13 (4 tokens), "Sunny, 21 °C." 13 (4).
    expect((await run({ maxTokens: 10 }, thread())).history).toBe("User: and tomorrow?\n\nAssistant: Rain in the afternoon.");
    expect((await run({ maxTokens: 5 }, thread())).history).toBe("");
  });

  it("give the messages as a list of {role, content} with format messages", async () => {
    expect((await run({ maxMessages: 1, format: "messages" }, thread())).history).toEqual([{ role: "assistant", content: "Rain in the afternoon." }]);
  });

  it("read an empty history with a THREAD_UNAVAILABLE warning when the run belongs to no thread", async () => {
    const result = await run({});
    expect(result.outcome.status).toBe("COMPLETED");
    expect(result.history).toBe("");
    expect(result.of("WARNING").map((event) => [event.nodeId, event.code])).toEqual([
      ["past", "THREAD_UNAVAILABLE"],
      ["answer", "EMPTY_PLACEHOLDER"],
    ]);
  });

  it("refuse limits out of range when the document is read", () => {
    const parsed = parseWorkflowValue(
      {
        format: "weft.workflow/v2",
        name: "bad history",
        nodes: [
          { id: "q", type: "input" },
          { id: "past", type: "history", maxMessages: 0, format: "xml" },
          { id: "out", type: "output" },
        ],
        edges: [
          { source: "q", target: "past" },
          { source: "past", target: "out" },
        ],
      },
      { registry: builtInRegistry },
    );
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issues.map((issue) => issue.path)).toEqual(["nodes[1].maxMessages", "nodes[1].format"]);
  });
});
