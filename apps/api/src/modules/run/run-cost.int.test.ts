import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { OpenAiMockServer } from "@weft/providers/testing";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";
import { RunEvents, RunWorkflow } from "../../testing/operations.js";

/**
 * Cost through the real API: two OpenAI-compatible endpoints with prices in WEFT_PROVIDERS_FILE (local
 * servers speaking OpenAI's protocol), a run over both, its node runs' and its own costUsd, the metric,
 * and limits.maxCostUsd refusing the call that could pass it — also when a workflow tool makes it.
 */

const CostImport = graphql(`
  mutation CostImport($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message field } } }
`);
const CostPublish = graphql(`
  mutation CostPublish($id: ID!) { publishWorkflow(id: $id) { version { number } errors { code message } } }
`);
const CostRun = graphql(`
  query CostRun($id: ID!) {
    run(id: $id) { status costUsd error { code message } nodeRuns { nodeId status costUsd provider model error { code } } }
  }
`);

let cheap: OpenAiMockServer;
let dear: OpenAiMockServer;
let dir: string;
let file: string;

beforeAll(async () => {
  [cheap, dear] = await Promise.all([OpenAiMockServer.start(), OpenAiMockServer.start()]);
  dir = await mkdtemp(path.join(os.tmpdir(), "weft-cost-"));
  file = path.join(dir, "providers.json");
  await writeFile(
    file,
    JSON.stringify({
      cheap: { kind: "openai", baseUrl: cheap.baseURL, models: [{ id: "small", inputUsdPerMTok: 1, outputUsdPerMTok: 2 }] },
      dear: { kind: "openai", baseUrl: dear.baseURL, models: [{ id: "large", inputUsdPerMTok: 10, outputUsdPerMTok: 30 }] },
    }),
  );
});

afterAll(async () => {
  await Promise.all([cheap.stop(), dear.stop()]);
  await rm(dir, { recursive: true, force: true });
});

/** q ─► a (cheap/small) ─► b (dear/large) ─► out */
const document = (limits?: { maxCostUsd: number }) => ({
  format: "weft.workflow/v2",
  name: "Two priced models",
  ...(limits ? { limits } : {}),
  nodes: [
    { id: "q", type: "input", content: "Name a colour." },
    { id: "a", type: "llm", provider: "cheap", model: "small", prompt: "{input}", params: { maxTokens: 500 } },
    { id: "b", type: "llm", provider: "dear", model: "large", prompt: "Improve: {input}", params: { maxTokens: 1000 } },
    { id: "out", type: "output" },
  ],
  edges: [
    { source: "q", target: "a" },
    { source: "a", target: "b" },
    { source: "b", target: "out" },
  ],
});

/** colour ─► name (cheap/small) ─► named: the published workflow a tool node calls. */
const NAMER = {
  format: "weft.workflow/v2",
  name: "Name a colour",
  nodes: [
    { id: "colour", type: "input", content: "" },
    { id: "name", type: "llm", provider: "cheap", model: "small", prompt: "Name {input}.", params: { maxTokens: 500 } },
    { id: "named", type: "output" },
  ],
  edges: [
    { source: "colour", target: "name" },
    { source: "name", target: "named" },
  ],
};

/** q ─► call (tool: the Name-a-colour workflow) ─► out */
const callerOf = (workflowId: string, limits?: { maxCostUsd: number }) => ({
  format: "weft.workflow/v2",
  name: "A workflow tool's cost",
  ...(limits ? { limits } : {}),
  nodes: [
    { id: "q", type: "input", content: "blue" },
    { id: "call", type: "tool", tool: { type: "workflow", workflowId }, arguments: { colour: "input" } },
    { id: "out", type: "output" },
  ],
  edges: [
    { source: "q", target: "call" },
    { source: "call", target: "out" },
  ],
});

describeEachDatabase("the cost of runs", (suite) => {
  let api: TestApp | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  async function runToEnd(doc: unknown) {
    const { importWorkflow } = await api!.admin.request(CostImport, { document: doc });
    expect(importWorkflow.errors).toEqual([]);
    const { runWorkflow } = await api!.admin.request(RunWorkflow, { workflowId: importWorkflow.workflow!.id });
    const ws = api!.admin.ws();
    await api!.admin.subscribe(ws, RunEvents, { runId: runWorkflow.run!.id, afterSeq: 0 }).ended;
    await ws.dispose();
    return (await api!.admin.request(CostRun, { id: runWorkflow.run!.id })).run!;
  }

  test("sums the priced calls of a run over several models, per node run, for the run and in weft_cost_usd_total", async () => {
    api = await startTestApp(suite.db(), { env: { WEFT_PROVIDERS_FILE: file } });
    cheap.enqueueChat({ kind: "reply", text: "Blue.", usage: { promptTokens: 1_000, completionTokens: 500 } });
    dear.enqueueChat({ kind: "reply", text: "Cerulean blue.", usage: { promptTokens: 2_000, completionTokens: 1_000 } });
    const run = await runToEnd(document());
    expect(run.status).toBe("COMPLETED");
    const byNode = Object.fromEntries(run.nodeRuns.map((nodeRun) => [nodeRun.nodeId, nodeRun.costUsd]));
    // 1,000 × $1 + 500 × $2 per million; 2,000 × $10 + 1,000 × $30 per million.
    expect(byNode["a"]).toBeCloseTo(0.002, 12);
    expect(byNode["b"]).toBeCloseTo(0.05, 12);
    expect(byNode["q"]).toBeNull();
    expect(run.costUsd).toBeCloseTo(0.052, 12);
    const metrics = await (await fetch(api.app.url.replace(/\/graphql$/, "/metrics"))).text();
    expect(metrics).toMatch(/weft_cost_usd_total\{provider="cheap",model="small"\} 0\.002\b/);
    expect(metrics).toMatch(/weft_cost_usd_total\{provider="dear",model="large"\} 0\.05\b/);
  });

  test("limits.maxCostUsd fails the run with RUN_COST_EXCEEDED before the call that could pass it", async () => {
    api = await startTestApp(suite.db(), { env: { WEFT_PROVIDERS_FILE: file } });
    cheap.enqueueChat({ kind: "reply", text: "Blue.", usage: { promptTokens: 1_000, completionTokens: 500 } });
    const before = dear.requests.length;
    // b may write 1,000 tokens at $30 per million: $0.03 on top of the $0.002 spent passes $0.01.
    const run = await runToEnd(document({ maxCostUsd: 0.01 }));
    expect(dear.requests.length).toBe(before);
    expect(run).toMatchObject({ status: "FAILED", error: { code: "RUN_COST_EXCEEDED" } });
    expect(run.costUsd).toBeCloseTo(0.002, 12);
    expect(run.nodeRuns.find((nodeRun) => nodeRun.nodeId === "b")).toMatchObject({ status: "FAILED", costUsd: null, error: { code: "RUN_COST_EXCEEDED" } });
  });

  async function publishedNamer(): Promise<string> {
    const { importWorkflow } = await api!.admin.request(CostImport, { document: NAMER });
    expect(importWorkflow.errors).toEqual([]);
    const { publishWorkflow } = await api!.admin.request(CostPublish, { id: importWorkflow.workflow!.id });
    expect(publishWorkflow.errors).toEqual([]);
    return importWorkflow.workflow!.id;
  }

  test("a workflow tool's priced calls count on the calling node run, in the calling run's costUsd and in weft_cost_usd_total, and its run is no run ended", async () => {
    api = await startTestApp(suite.db(), { env: { WEFT_PROVIDERS_FILE: file } });
    const namer = await publishedNamer();
    cheap.enqueueChat({ kind: "reply", text: "Cobalt.", usage: { promptTokens: 1_000, completionTokens: 500 } });
    const run = await runToEnd(callerOf(namer));
    expect(run.status).toBe("COMPLETED");
    expect(run.nodeRuns.find((nodeRun) => nodeRun.nodeId === "call")!.costUsd).toBeCloseTo(0.002, 12);
    expect(run.costUsd).toBeCloseTo(0.002, 12);
    const metrics = await (await fetch(api.app.url.replace(/\/graphql$/, "/metrics"))).text();
    expect(metrics).toMatch(/weft_cost_usd_total\{provider="cheap",model="small"\} 0\.002\b/);
    // One run ended: the caller. The tool's inline run counts its nodes, not as a run of its own.
    expect(metrics).toMatch(/^weft_runs_ended_total\{status="COMPLETED"\} 1$/m);
  });

  test("a caller's limits.maxCostUsd stops the workflow tool's call that could pass it, with RUN_COST_EXCEEDED", async () => {
    api = await startTestApp(suite.db(), { env: { WEFT_PROVIDERS_FILE: file } });
    const namer = await publishedNamer();
    const before = cheap.requests.length;
    // The called workflow has no limit of its own; its call may write 500 tokens at $2 per million:
    // $0.001 (and the prompt) does not fit the caller's $0.0005.
    const run = await runToEnd(callerOf(namer, { maxCostUsd: 0.0005 }));
    expect(cheap.requests.length).toBe(before);
    expect(run).toMatchObject({ status: "FAILED", error: { code: "RUN_COST_EXCEEDED" } });
    expect(run.error!.message).toMatch(/^node "call" would make a model call estimated at up to \$\S+, taking the run past its limit of \$0\.000500/);
    expect(run.nodeRuns.find((nodeRun) => nodeRun.nodeId === "call")).toMatchObject({ status: "FAILED", error: { code: "RUN_COST_EXCEEDED" } });
  });
});
