import { describe, expect, it } from "vitest";
import { FakeRetriever } from "../../testing/fake-retriever.js";
import { pipeline } from "../../testing/pipeline-builder.js";
import { runPipeline } from "../../testing/pipeline-harness.js";

const handbook = () => new FakeRetriever({ handbook: [{ id: "c1", text: "cats purr", source: { documentId: "d", title: "Cats", chunkIndex: 0 } }] });

describe("llm node retrieval", () => {
  /**
   *  q ─► own (intensity HIGH) ─► out
   *  q ─► run's (no intensity) ─┘
   */
  it("takes top_k for its own intensity from the host's table, and the run's top_k without one", async () => {
    const retriever = handbook();
    const workflow = pipeline()
      .input("q", "why do cats purr")
      .model("own", "llm", ["a"], { knowledgeBase: "handbook", intensity: "HIGH" }, { prompt: "{context}" })
      .model("runs", "llm", ["b"], { knowledgeBase: "handbook" }, { prompt: "{context}" })
      .node("j", "join", { combine: "array" })
      .output("out")
      .edges("q>own", "q>runs", "own>j", "runs>j", "j>out")
      .build();
    const run = await runPipeline({ workflow, retriever, request: { intensity: "LOW" }, options: { topK: { LOW: 2, HIGH: 20 } } });
    expect(run.outcome.status).toBe("COMPLETED");
    // One search each: 20 is HIGH in the host's table (the default table says 10), 2 the run's LOW.
    expect(retriever.calls.map((call) => call.topK).sort((a, b) => a - b)).toEqual([2, 20]);
  });
});
