import { readFile } from "node:fs/promises";
import { afterEach, beforeEach, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";
import { RunWorkflow } from "../../testing/operations.js";

/**
 * Runs of weft.workflow/v2 graphs through the real server (HTTP for the mutations, WebSocket for the
 * events) on both databases: a router, a grader's retry loop with its feedback and its exit, a join
 * after an untaken branch, a map, web search and the semantic cache, node runs per invocation, typed
 * events, and replay from any seq.
 */

export const PipelineEvent = graphql(`
  fragment PipelineEvent on RunEvent {
    seq
    type
    nodeId
    invocation
    output
    value
    reason
    code
    ports
    skipped
    loopId
    iteration
    max
    feedback
    exit
    items
    index
    similarity
    state
    channel
    error { code message }
  }
`);

const PipelineRunEvents = graphql(`
  subscription PrEvents($runId: ID!, $afterSeq: Int!) { runEvents(runId: $runId, afterSeq: $afterSeq) { ...PipelineEvent } }
`);

const PipelineRun = graphql(`
  query PrRun($id: ID!) {
    run(id: $id) {
      status
      result
      state
      error { code message }
      nodeRuns { nodeId invocation nodeType status output value renderedPrompt error { code } }
      events(limit: 200) { ...PipelineEvent }
    }
  }
`);

const ImportAndRun = graphql(`
  mutation PrImport($document: JSON!) { importWorkflow(document: $document) { workflow { id version } errors { code message field } } }
`);

const UpdateTemplate = graphql(`
  mutation PrUpdate($workflowId: ID!, $nodeId: ID!, $input: UpdateNodeInput!) { updateNode(workflowId: $workflowId, nodeId: $nodeId, input: $input) { errors { code } } }
`);

type Event = { seq: number; type: string; nodeId: string | null; invocation: string | null } & Record<string, unknown>;

const RETRY_LOOP = new URL("../../../../../examples/retry-loop.json", import.meta.url);

describeEachDatabase("runs of weft.workflow/v2 graphs over HTTP and WebSocket", (suite) => {
  let api: TestApp;
  beforeEach(async () => {
    api = await startTestApp(suite.db());
  });
  afterEach(async () => {
    await api.close();
  });

  async function importDocument(document: unknown): Promise<string> {
    const { importWorkflow } = await api.admin.request(ImportAndRun, { document });
    expect(importWorkflow.errors).toEqual([]);
    return importWorkflow.workflow!.id;
  }

  /** Starts a run and follows its events over WebSocket to the end. */
  async function run(workflowId: string, inputs: { nodeId: string; content: string }[] = [], options: { stateEvents?: boolean } = {}) {
    const { runWorkflow } = await api.admin.request(RunWorkflow, { workflowId, input: { inputs, ...options } });
    expect(runWorkflow.errors).toEqual([]);
    const runId = runWorkflow.run!.id;
    const ws = api.admin.ws();
    const collected = api.admin.subscribe(ws, PipelineRunEvents, { runId, afterSeq: 0 });
    await collected.ended;
    await ws.dispose();
    expect(collected.errors).toEqual([]);
    const events = collected.items.map((item) => item.runEvents as Event);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    const { run: stored } = await api.admin.request(PipelineRun, { id: runId });
    return { runId, events, stored: stored!, of: (type: string) => events.filter((event) => event.type === type) };
  }

  /**
   * question ─► route ─[short]─► direct ───────────────────► answer (join) ─► result
   *               └─[default]─► draft ─► check ─[pass]─────────┘
   *                              ▲──[retry, loop regen, max 3]──┘
   * The grader says retry, retry, pass: three drafts, each prompt carrying the last reason.
   */
  test("a grader's retry loop runs three iterations with the feedback, and the join after the untaken branch completes", async () => {
    const workflowId = await importDocument(JSON.parse(await readFile(RETRY_LOOP, "utf8")));
    const { events, stored, of } = await run(workflowId);
    expect(stored).toMatchObject({ status: "COMPLETED", error: null });
    expect(stored.result).toMatch(/^Rayleigh scattering/);

    expect(of("BRANCH_TAKEN").find((event) => event.nodeId === "route")).toMatchObject({ ports: ["default"], skipped: ["short"], invocation: "" });
    expect(of("NODE_SKIPPED")).toEqual([expect.objectContaining({ nodeId: "direct", reason: "BRANCH_NOT_TAKEN", invocation: "" })]);
    expect(of("LOOP_ITERATION").map((event) => [event.loopId, event.iteration, event.max, event.feedback, event.invocation])).toEqual([
      ["regen", 2, 3, "say what scatters the light", "regen#2"],
      ["regen", 3, 3, "name the effect", "regen#3"],
    ]);
    const drafts = of("NODE_COMPLETED").filter((event) => event.nodeId === "draft");
    expect(drafts.map((event) => event.invocation)).toEqual(["", "regen#2", "regen#3"]);
    const verdict = of("NODE_COMPLETED").find((event) => event.nodeId === "check" && event.invocation === "regen#3");
    expect(verdict?.value).toMatchObject({ verdict: "pass", score: 0.9 });
    expect(of("NODE_COMPLETED").find((event) => event.nodeId === "answer")).toBeDefined();
    expect(events.at(-1)).toMatchObject({ type: "RUN_COMPLETED", state: { drafts: [expect.any(String), expect.any(String), expect.any(String)] } });

    // One node run per (node, invocation), the later iterations created by their own events.
    const runsOf = (nodeId: string) => stored.nodeRuns.filter((nodeRun) => nodeRun.nodeId === nodeId);
    expect(runsOf("draft").map((nodeRun) => [nodeRun.invocation, nodeRun.status])).toEqual([["", "COMPLETED"], ["regen#2", "COMPLETED"], ["regen#3", "COMPLETED"]]);
    expect(runsOf("draft").find((nodeRun) => nodeRun.invocation === "regen#3")!.renderedPrompt).toContain("name the effect");
    expect(runsOf("check").map((nodeRun) => nodeRun.invocation)).toEqual(["", "regen#2", "regen#3"]);
    expect(runsOf("direct")).toEqual([expect.objectContaining({ invocation: "", status: "SKIPPED", error: { code: "BRANCH_NOT_TAKEN" } })]);
    expect(stored.state).toEqual({ drafts: drafts.map((event) => event.output) });
    // What was stored is what was streamed, typed fields included.
    expect(stored.events).toEqual(events);
  });

  test("STATE_UPDATED events come only when the run asks for them, one per write with its channel and invocation", async () => {
    const workflowId = await importDocument(JSON.parse(await readFile(RETRY_LOOP, "utf8")));
    const quiet = await run(workflowId);
    expect(quiet.of("STATE_UPDATED")).toEqual([]);

    const { of, stored } = await run(workflowId, [], { stateEvents: true });
    expect(stored.status).toBe("COMPLETED");
    // The three drafts each append to the drafts channel.
    expect(of("STATE_UPDATED").map((event) => [event.nodeId, event.channel, event.invocation])).toEqual([
      ["draft", "drafts", ""],
      ["draft", "drafts", "regen#2"],
      ["draft", "drafts", "regen#3"],
    ]);
  });

  /** q ─► draft ─► check ─[pass]─► out;  check ─[retry, loop again, max 2, exit pass]─► draft  (always retry) */
  test("an exhausted loop takes its exit port with LOOP_EXHAUSTED, and a reconnecting client replays the rest", async () => {
    const workflowId = await importDocument({
      format: "weft.workflow/v2",
      name: "never good enough",
      loops: [{ id: "again", max: 2, exit: "pass" }],
      nodes: [
        { id: "q", type: "input", content: "write a haiku" },
        { id: "draft", type: "llm", provider: "offline", model: "scripted", params: { replies: ["one", "two"] } },
        { id: "check", type: "grade", provider: "offline", model: "scripted", params: { replies: [{ verdict: "retry", score: 0.1, reason: "again" }] } },
        { id: "out", type: "output" },
      ],
      edges: [
        { source: "q", target: "draft" },
        { source: "draft", target: "check" },
        { source: "check", sourcePort: "pass", target: "out" },
        { source: "check", sourcePort: "retry", target: "draft", loop: "again" },
      ],
    });
    const { runId, events, stored, of } = await run(workflowId);
    expect(stored).toMatchObject({ status: "COMPLETED", result: "two" });
    expect(of("LOOP_EXHAUSTED")).toEqual([expect.objectContaining({ loopId: "again", nodeId: "check", max: 2, exit: "pass", invocation: "again#2" })]);

    const middle = events.find((event) => event.type === "LOOP_ITERATION")!.seq;
    const ws = api.admin.ws();
    const replay = api.admin.subscribe(ws, PipelineRunEvents, { runId, afterSeq: middle });
    await replay.ended;
    await ws.dispose();
    expect(replay.items.map((item) => item.runEvents)).toEqual(events.slice(middle));
  });

  /** q ─► each (map over "a,b,c"; body: item ─► shout ─► done) ─► out */
  test("a map runs its body per item, node runs per item, the output in item order", async () => {
    const workflowId = await importDocument({
      format: "weft.workflow/v2",
      name: "shout each",
      nodes: [
        { id: "q", type: "input", content: "a,b,c" },
        {
          id: "each",
          type: "map",
          items: "input.split(',')",
          concurrency: 3,
          body: {
            nodes: [{ id: "item", type: "input" }, { id: "shout", type: "template", template: "{item}!" }, { id: "done", type: "output" }],
            edges: [{ source: "item", target: "shout" }, { source: "shout", target: "done" }],
          },
        },
        { id: "out", type: "output" },
      ],
      edges: [{ source: "q", target: "each" }, { source: "each", target: "out" }],
    });
    const { stored, of } = await run(workflowId);
    expect(stored.status).toBe("COMPLETED");
    expect(of("MAP_STARTED")).toEqual([expect.objectContaining({ nodeId: "each", items: 3, invocation: "" })]);
    expect(of("MAP_ITEM_COMPLETED").map((event) => event.index).sort()).toEqual([0, 1, 2]);
    expect(of("NODE_COMPLETED").find((event) => event.nodeId === "each")?.value).toEqual(["a!", "b!", "c!"]);
    const shouts = stored.nodeRuns.filter((nodeRun) => nodeRun.nodeId === "shout");
    expect(shouts.map((nodeRun) => [nodeRun.invocation, nodeRun.nodeType, nodeRun.output]).sort()).toEqual([
      ["each[0]", "template", "a!"],
      ["each[1]", "template", "b!"],
      ["each[2]", "template", "c!"],
    ]);
  });

  /**
   * q ─► web (web_search, offline corpus) ─► out
   * q ─► lookup (cache_lookup) ─[miss]─► answer ─► store (cache_store) ─► j ─► final;  lookup ─[hit]─► j
   */
  test("tool nodes reach the server's providers: web search, and a semantic cache scoped to the draft's edit version", async () => {
    const searchId = await importDocument({
      format: "weft.workflow/v2",
      name: "search",
      nodes: [{ id: "q", type: "input", content: "chunking documents for retrieval" }, { id: "web", type: "web_search", provider: "offline", maxResults: 2 }, { id: "out", type: "output" }],
      edges: [{ source: "q", target: "web" }, { source: "web", target: "out" }],
    });
    const search = await run(searchId);
    expect(search.stored.status).toBe("COMPLETED");
    const pages = search.of("NODE_COMPLETED").find((event) => event.nodeId === "web")?.value as { url: string }[];
    expect(pages.length).toBeGreaterThan(0);
    expect(pages[0]!.url).toMatch(/^https:\/\//);

    const cacheId = await importDocument({
      format: "weft.workflow/v2",
      name: "cached",
      nodes: [
        { id: "q", type: "input", content: "When did Mudeungsan become a national park?" },
        { id: "lookup", type: "cache_lookup", threshold: 0.95 },
        { id: "answer", type: "template", template: "answered: {input}" },
        { id: "store", type: "cache_store" },
        { id: "j", type: "join", mode: "first" },
        { id: "final", type: "output" },
      ],
      edges: [
        { source: "q", target: "lookup" },
        { source: "lookup", sourcePort: "hit", target: "j" },
        { source: "lookup", sourcePort: "miss", target: "answer" },
        { source: "answer", target: "store" },
        { source: "store", target: "j" },
        { source: "j", target: "final" },
      ],
    });
    const first = await run(cacheId);
    expect(first.stored.status).toBe("COMPLETED");
    if (suite.mode === "server") {
      // The test PostgreSQL server has no pgvector and no Weaviate is configured: the cache nodes say so and run uncached.
      expect(first.of("WARNING").map((event) => event.code)).toContain("CACHE_UNAVAILABLE");
      return;
    }
    expect(first.of("CACHE_MISS")).toHaveLength(1);
    const second = await run(cacheId);
    expect(second.of("CACHE_HIT")).toEqual([expect.objectContaining({ nodeId: "lookup", similarity: expect.closeTo(1, 3) })]);
    expect(second.stored.result).toBe(first.stored.result);
    // An edit of the draft starts a new cache scope (workflow:<id>:draft@<edit version>).
    await api.admin.request(UpdateTemplate, { workflowId: cacheId, nodeId: "answer", input: { config: { template: "now: {input}" } } });
    const afterEdit = await run(cacheId);
    expect(afterEdit.of("CACHE_MISS")).toHaveLength(1);
    expect(afterEdit.stored.result).toMatch(/^now: /);
  });
});
