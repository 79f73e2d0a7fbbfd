import { describe, expect, it } from "vitest";
import { FakeLlmProvider } from "../../testing/fake-llm-provider.js";
import { run } from "../../testing/run-harness.js";
import { workflow } from "../../testing/workflow-builder.js";

describe("text nodes", () => {
  /*
   *  in ──> out
   */
  it("pass the input node's content to the output node, whose output is the run result", async () => {
    const content = 'text with "quotes", {braces} and ```fences```';
    const wf = workflow().input("in", content).output().edges("in>out").build();
    const { outcome, of } = await run({ workflow: wf, provider: new FakeLlmProvider() });
    expect(outcome).toMatchObject({ status: "COMPLETED", result: content, outputs: { in: content, out: content } });
    expect(of("NODE_DESCRIPTION").map((event) => event.description)).toEqual([content, content]);
    expect(of("NODE_COMPLETED")[1]!.details).toMatchObject({ inputs: [content], renderedPrompt: null, provider: null });
  });

  /*
   *  in ──> g ──> out        (g answers with a non-string output)
   */
  it("give the output node its pre-node's output even when the model sent a non-string value", async () => {
    const provider = new FakeLlmProvider(() => JSON.stringify({ description: "d", output: { answer: 42 } }));
    const wf = workflow().input("in").model("g", "generation").output().edges("in>g", "g>out").build();
    const { outcome } = await run({ workflow: wf, provider });
    expect(outcome.result).toBe('{"answer":42}');
  });

  it("treat an input node without content as empty text", async () => {
    const wf = workflow().input("in").output().edges("in>out").build();
    wf.nodes[0] = { id: "in", type: "input" };
    const { outcome } = await run({ workflow: wf, provider: new FakeLlmProvider() });
    expect(outcome.result).toBe("");
  });
});
