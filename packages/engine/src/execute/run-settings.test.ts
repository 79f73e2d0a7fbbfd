import { describe, expect, it } from "vitest";
import { DEFAULT_TOP_K, nodeExecutionSettings, resolveRunSettings } from "./run-settings.js";

const workflowSettings = {
  prompts: { generation: "wf-g", validation: "wf-v" },
  outputFormat: "wf-format",
  knowledgeBase: "wf-kb",
  intensity: "LOW" as const,
};
const behaviour = { topK: DEFAULT_TOP_K, parseRepair: true, streamTokens: false };

describe("resolveRunSettings", () => {
  it("takes the workflow's defaults when the request sets nothing", () => {
    expect(resolveRunSettings(workflowSettings, {}, behaviour)).toMatchObject({
      prompts: { generation: "wf-g", validation: "wf-v" },
      outputFormat: "wf-format",
      knowledgeBase: "wf-kb",
      intensity: "LOW",
      topK: 3,
    });
  });

  it("lets request values override the workflow's, prompt by prompt", () => {
    const settings = resolveRunSettings(
      workflowSettings,
      { prompts: { generation: "rq-g" }, outputFormat: "rq-format", knowledgeBase: "rq-kb", intensity: "HIGH" },
      behaviour,
    );
    expect(settings).toMatchObject({
      prompts: { generation: "rq-g", validation: "wf-v" },
      outputFormat: "rq-format",
      knowledgeBase: "rq-kb",
      intensity: "HIGH",
      topK: 10,
    });
  });

  it("runs without a knowledge base when the request sets it to null or empty", () => {
    expect(resolveRunSettings(workflowSettings, { knowledgeBase: null }, behaviour).knowledgeBase).toBeNull();
    expect(resolveRunSettings(workflowSettings, { knowledgeBase: "" }, behaviour).knowledgeBase).toBeNull();
  });

  it("defaults the intensity to MEDIUM when neither side sets it", () => {
    const settings = resolveRunSettings({ ...workflowSettings, intensity: null }, {}, behaviour);
    expect(settings).toMatchObject({ intensity: "MEDIUM", topK: 5 });
  });
});

describe("nodeExecutionSettings", () => {
  it("prefers the node's own prompt over the run's prompt for its type", () => {
    const run = resolveRunSettings(workflowSettings, {}, behaviour);
    expect(nodeExecutionSettings(run, { id: "g", type: "generation" }).prompt).toBe("wf-g");
    expect(nodeExecutionSettings(run, { id: "g", type: "generation", prompt: "own" }).prompt).toBe("own");
    expect(nodeExecutionSettings(run, { id: "e", type: "ensemble" }).prompt).toBe("");
  });

  it("hands every node the host's top_k table, or the defaults for a run prepared before it was frozen with the run", () => {
    const run = resolveRunSettings(workflowSettings, {}, { ...behaviour, topK: { LOW: 1, MEDIUM: 2, HIGH: 30 } });
    expect(nodeExecutionSettings(run, { id: "l", type: "llm" }).topKByIntensity).toEqual({ LOW: 1, MEDIUM: 2, HIGH: 30 });
    const { topKByIntensity: _dropped, ...older } = run;
    expect(nodeExecutionSettings(older, { id: "l", type: "llm" }).topKByIntensity).toEqual(DEFAULT_TOP_K);
  });
});
