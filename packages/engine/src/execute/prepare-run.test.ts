import { DEFAULT_RUN_LIMITS } from "../limits/run-limits.js";
import { describe, expect, it } from "vitest";
import { FakeLlmProvider, providers, resultJson } from "../testing/fake-llm-provider.js";
import { registry } from "../testing/run-harness.js";
import { workflow } from "../testing/workflow-builder.js";
import { pipeline } from "../testing/pipeline-builder.js";
import { builtInRegistry } from "../node-types/built-in-node-types.js";
import { prepareRun, PREPARED_RUN_FORMAT, type PreparedRun } from "./prepare-run.js";
import { parsePreparedRun } from "./prepared-run.schema.js";
import { runWorkflow } from "./run-workflow.js";

const MODELS = [{ provider: "fake", model: "m" }];

/*
 *  a ──> g ──> out
 */
const chain = () =>
  workflow()
    .input("a", "stored")
    .model("g", "generation")
    .output()
    .edges("a>g", "g>out")
    .prompts({ generation: "wf {input_data}" })
    .knowledgeBase("handbook")
    .build();

function prepared(result: ReturnType<typeof prepareRun>): PreparedRun {
  if (!result.ok) throw new Error(`refused: ${result.violations.map((violation) => violation.code).join(", ")}`);
  return result.run;
}

describe("prepareRun", () => {
  it("freezes the workflow, the settings resolved from request and policy, and the input contents", () => {
    const run = prepared(
      prepareRun(
        chain(),
        { prompts: { generation: "rq {input_data}" }, intensity: "HIGH", inputs: { a: "supplied" }, streamTokens: true },
        { registry: builtInRegistry, topK: { HIGH: 7 }, parseRepair: false, concurrency: 4, models: MODELS, knowledgeBases: ["handbook"] },
      ),
    );
    expect(run).toEqual({
      format: PREPARED_RUN_FORMAT,
      workflow: chain(),
      settings: {
        prompts: { generation: "rq {input_data}", ensemble: "{input_data}", validation: "{input_data}" },
        outputFormat: "",
        knowledgeBase: "handbook",
        intensity: "HIGH",
        topK: 7,
        topKByIntensity: { LOW: 3, MEDIUM: 5, HIGH: 7 },
        parseRepair: false,
        streamTokens: true,
      },
      inputs: { a: "supplied" },
      state: {},
      concurrency: 4,
      maxInvocations: 1_000,
      limits: DEFAULT_RUN_LIMITS,
    });
  });

  it("is plain JSON: a stored copy reads back equal and still runs", async () => {
    const run = prepared(prepareRun(chain(), { knowledgeBase: null, inputs: { a: "supplied" } }, { registry: builtInRegistry, concurrency: Infinity }));
    expect(run.concurrency).toBeNull();
    const stored = JSON.parse(JSON.stringify(run)) as unknown;
    expect(parsePreparedRun(stored)).toEqual(run);
    const outcome = await runWorkflow({ runId: "r", prepared: parsePreparedRun(stored), registry, providers: providers(new FakeLlmProvider()), onEvent: () => undefined });
    expect(outcome).toMatchObject({ status: "COMPLETED", result: "wf supplied" });
  });

  it("lists every violation at once: broken rules, unavailable models, bad inputs and a missing knowledge base", () => {
    /*
     *  a ──> g (model "gpt-9") ──> out     b (goes nowhere)
     */
    const wf = workflow().input("a").input("b").model("g", "generation", { model: "gpt-9" }).output().edges("a>g", "g>out").build();
    const result = prepareRun(wf, { knowledgeBase: "missing", inputs: { g: "x", nope: "y", b: "fine" } }, { registry: builtInRegistry, models: MODELS, knowledgeBases: ["handbook"] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.violations.map(({ code, nodeIds, requestPath }) => ({ code, nodeIds, requestPath }))).toEqual([
      { code: "MISSING_POST", nodeIds: ["b"], requestPath: undefined },
      { code: "MODEL_UNAVAILABLE", nodeIds: ["g"], requestPath: undefined },
      { code: "RUN_INPUT_INVALID", nodeIds: ["g"], requestPath: ["inputs", "g"] },
      { code: "RUN_INPUT_INVALID", nodeIds: [], requestPath: ["inputs", "nope"] },
      { code: "KNOWLEDGE_BASE_NOT_FOUND", nodeIds: [], requestPath: ["knowledgeBase"] },
    ]);
    expect(result.violations[2]!.message).toMatch(/"g" is not an input node/);
    expect(result.violations[3]!.message).toMatch(/there is no node "nope"/);
  });

  it("checks neither models nor knowledge bases when the policy does not list them", () => {
    const wf = workflow().input("a").model("g", "generation", { model: "gpt-9" }).output().edges("a>g", "g>out").knowledgeBase("any").build();
    expect(prepareRun(wf, {}, { registry: builtInRegistry }).ok).toBe(true);
  });

  it("keeps a node id such as __proto__ as an ordinary input key, through storage too", () => {
    const wf = workflow().input("__proto__", "stored").output().edges("__proto__>out").build();
    const inputs = JSON.parse('{"__proto__": "supplied"}') as Record<string, string>;
    const run = prepared(prepareRun(wf, { inputs }, { registry: builtInRegistry }));
    expect(Object.keys(run.inputs)).toEqual(["__proto__"]);
    expect(Object.keys(parsePreparedRun(JSON.parse(JSON.stringify(run))).inputs)).toEqual(["__proto__"]);
  });

  it("throws for a policy that is the host's bug: a concurrency below one or a fractional top_k", () => {
    expect(() => prepareRun(chain(), {}, { registry: builtInRegistry, concurrency: 0 })).toThrow(expect.objectContaining({ code: "INVALID_CONCURRENCY" }));
    expect(() => prepareRun(chain(), {}, { registry: builtInRegistry, topK: { LOW: 1.5 } })).toThrow(expect.objectContaining({ code: "INVALID_TOP_K" }));
  });
});

describe("prepareRun on a v2 pipeline", () => {
  /*
   *  q ─► note (template, writes "notes") ─► out      state channel "notes" (append)
   */
  const noting = () =>
    pipeline()
      .input("q", "hello")
      .node("note", "template", { template: "{input}", writes: "notes" })
      .output("out")
      .edges("q>note", "note>out")
      .state({ notes: { reducer: "append" } })
      .build();

  it("freezes the starting state and the run budget, and the stored copy runs with them", async () => {
    const run = prepared(prepareRun(noting(), { state: { notes: ["earlier"] } }, { registry: builtInRegistry, maxInvocations: 50 }));
    expect(run).toMatchObject({ state: { notes: ["earlier"] }, maxInvocations: 50 });
    const stored = parsePreparedRun(JSON.parse(JSON.stringify(run)));
    const outcome = await runWorkflow({ runId: "r", prepared: stored, registry: builtInRegistry, providers: new Map(), onEvent: () => undefined });
    expect(outcome).toMatchObject({ status: "COMPLETED", state: { notes: ["earlier", "hello"] } });
  });

  it("takes the workflow's own limit unless the host's ceiling is lower", () => {
    const limited = { ...noting(), limits: { maxInvocations: 20 } };
    expect(prepared(prepareRun(limited, {}, { registry: builtInRegistry })).maxInvocations).toBe(20);
    expect(prepared(prepareRun(limited, {}, { registry: builtInRegistry, maxInvocations: 5 })).maxInvocations).toBe(5);
  });

  it("refuses a starting value for a channel the workflow does not declare, with the other violations", () => {
    const result = prepareRun(noting(), { state: { nope: 1 }, inputs: { out: "x" } }, { registry: builtInRegistry, maxInvocations: 2 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.violations.map(({ code, requestPath }) => ({ code, requestPath }))).toEqual([
      { code: "RUN_BUDGET_EXCEEDED", requestPath: undefined },
      { code: "RUN_INPUT_INVALID", requestPath: ["inputs", "out"] },
      { code: "RUN_INPUT_INVALID", requestPath: ["state", "nope"] },
    ]);
  });
});

describe("parsePreparedRun", () => {
  it("refuses what is not a prepared run of this format, naming the field", () => {
    const run = prepared(prepareRun(chain(), {}, { registry: builtInRegistry }));
    expect(() => parsePreparedRun({ ...run, format: "weft.run/0" })).toThrow(expect.objectContaining({ code: "PREPARED_RUN_INVALID" }));
    expect(() => parsePreparedRun({ ...run, settings: { ...run.settings, topK: 0 } })).toThrow(/settings\.topK/);
    expect(() => parsePreparedRun(null)).toThrow(expect.objectContaining({ code: "PREPARED_RUN_INVALID" }));
    expect(() => parsePreparedRun({ ...run, settings: { ...run.settings, topKByIntensity: { LOW: 3, MEDIUM: 0, HIGH: 10 } } })).toThrow(/settings\.topKByIntensity\.MEDIUM/);
  });

  it("reads a run stored before the top_k table was frozen with it", () => {
    const { topKByIntensity: _dropped, ...settings } = prepared(prepareRun(chain(), {}, { registry: builtInRegistry })).settings;
    const run = { ...prepared(prepareRun(chain(), {}, { registry: builtInRegistry })), settings };
    expect(parsePreparedRun(run)).toBe(run);
  });
});

describe("runWorkflow on a prepared run", () => {
  it("executes the settings it was given and resolves nothing again", async () => {
    const provider = new FakeLlmProvider((request) => resultJson(request.prompt));
    const run = prepared(prepareRun(chain(), { knowledgeBase: null }, { registry: builtInRegistry }));
    const edited: PreparedRun = { ...run, settings: { ...run.settings, prompts: { generation: "frozen {input_data}" } } };
    const outcome = await runWorkflow({ runId: "r", prepared: edited, registry, providers: providers(provider), onEvent: () => undefined });
    expect(outcome.result).toBe("frozen stored");
  });
});
