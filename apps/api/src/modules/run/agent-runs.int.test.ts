import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startHttpTestServer, startMcpTestServer } from "@weft/providers/testing";
import { afterEach, beforeEach, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";
import { RunWorkflow } from "../../testing/operations.js";

/**
 * Agents through the real server (SPEC-V3 §3): the offline scripted model asks for tool calls, the run
 * executes them against the server's own providers (a knowledge base here), and the agent's steps and
 * calls arrive as their own event kinds, in the subscription and in the stored events alike, each call
 * with its own node run.
 */

export const AgentEvent = graphql(`
  fragment AgentEvent on RunEvent {
    __typename
    seq
    nodeId
    ... on NodeEvent { invocation }
    ... on AgentStepEvent { step text calls { callId tool arguments } finishReason usage { totalTokens } }
    ... on ToolCalledEvent { callId tool arguments }
    ... on ToolResultEvent { callId tool ok summary }
    ... on RunCompletedEvent { result }
  }
`);

const AgentRunEvents = graphql(`
  subscription AgentRunEvents($runId: ID!) { runEvents(runId: $runId, afterSeq: 0) { ...AgentEvent } }
`);

const AgentStoredRun = graphql(`
  query AgentStoredRun($id: ID!) {
    run(id: $id) { status result events(limit: 200) { ...AgentEvent } nodeRuns { nodeId nodeType invocation status output } }
  }
`);

const ShoutRuns = graphql(`
  query AgentShoutRuns($workflowId: ID!) { runs(workflowId: $workflowId, first: 5) { totalCount } }
`);

const McpServers = graphql(`
  query AgentMcpServers { mcpServers { name transport target error tools { name description inputSchema } } }
`);

const CreateKb = graphql(`
  mutation AgentKbCreate($input: CreateKnowledgeBaseInput!) { createKnowledgeBase(input: $input) { knowledgeBase { id } errors { code message } } }
`);

const AddDocuments = graphql(`
  mutation AgentKbAdd($id: ID!, $documents: [DocumentInput!]!) {
    addDocuments(knowledgeBaseId: $id, documents: $documents, waitForIndexing: true) { knowledgeBase { chunkCount } errors { code message } }
  }
`);

const Publish = graphql(`
  mutation AgentPublish($id: ID!) { publishWorkflow(id: $id) { version { number } errors { code message } } }
`);

const ImportWorkflow = graphql(`
  mutation AgentImport($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }
`);

/** question ─► research (agent: search_docs) ─► answer */
const RESEARCH = {
  format: "weft.workflow/v2",
  name: "Research with a knowledge base",
  nodes: [
    { id: "question", type: "input", content: "Why is the sky blue?" },
    {
      id: "research",
      type: "agent",
      provider: "offline",
      model: "scripted",
      prompt: "Answer from the docs: {input}",
      system: "You are a careful researcher.",
      tools: [{ type: "retrieve", knowledgeBase: "docs", topK: 2 }, { type: "retrieve", knowledgeBase: "missing" }],
      maxSteps: 4,
      params: {
        replies: [
          // Arguments as JSON text: params are held to a depth a nested object here would pass.
          { toolCalls: [{ name: "search_docs", arguments: '{"query": "sky colour"}' }, { name: "search_missing", arguments: '{"query": "sky"}' }], text: "Let me look." },
          "The sky is blue because air scatters blue light (Rayleigh scattering).",
        ],
      },
    },
    { id: "answer", type: "output" },
  ],
  edges: [
    { id: "e1", source: "question", target: "research" },
    { id: "e2", source: "research", target: "answer" },
  ],
};

// The embedded database only: its pgvector holds the knowledge base; the test PostgreSQL server has no
// pgvector and would need a Weaviate, which this test is not about (the run path is the same on both).
/** city ─► shout (template) ─► loud: the workflow a tool call runs. */
const SHOUT = {
  format: "weft.workflow/v2",
  name: "Shout a city",
  nodes: [
    { id: "city", type: "input", content: "" },
    { id: "shout", type: "template", template: "{input}!!! (loud)" },
    { id: "loud", type: "output" },
  ],
  edges: [
    { id: "e1", source: "city", target: "shout" },
    { id: "e2", source: "shout", target: "loud" },
  ],
};

/** q ─► caller (agent: the Shout workflow as a tool) ─► out */
const callerOf = (workflowId: string) => ({
  format: "weft.workflow/v2",
  name: "Agent with a workflow tool",
  nodes: [
    { id: "q", type: "input", content: "Shout Gwangju." },
    {
      id: "caller",
      type: "agent",
      provider: "offline",
      model: "scripted",
      tools: [{ type: "workflow", workflowId }],
      params: {
        replies: [
          { toolCalls: [{ name: "Shout_a_city", arguments: '{"city": "Gwangju"}' }, { name: "Shout_a_city", arguments: '{"town": "Seoul"}' }] },
          "Done.",
        ],
      },
    },
    { id: "out", type: "output" },
  ],
  edges: [
    { id: "e1", source: "q", target: "caller" },
    { id: "e2", source: "caller", target: "out" },
  ],
});

describeEachDatabase("agent runs", (suite) => {
  let api: TestApp;
  beforeEach(async () => {
    api = await startTestApp(suite.db());
  });
  afterEach(async () => {
    await api.close();
  });

  test("an agent's steps and tool calls arrive as AGENT_STEP, TOOL_CALLED and TOOL_RESULT, and each call has its own node run", async () => {
    const { createKnowledgeBase } = await api.admin.request(CreateKb, { input: { name: "docs" } });
    expect(createKnowledgeBase.errors).toEqual([]);
    const content = "The sky colour is blue because air molecules scatter blue light more than red: Rayleigh scattering.";
    const { addDocuments } = await api.admin.request(AddDocuments, { id: createKnowledgeBase.knowledgeBase!.id, documents: [{ title: "Sky", content }] });
    expect(addDocuments.errors).toEqual([]);
    const { importWorkflow } = await api.admin.request(ImportWorkflow, { document: RESEARCH });
    expect(importWorkflow.errors).toEqual([]);

    const { runWorkflow } = await api.admin.request(RunWorkflow, { workflowId: importWorkflow.workflow!.id });
    expect(runWorkflow.errors).toEqual([]);
    const runId = runWorkflow.run!.id;
    const ws = api.admin.ws();
    const collected = api.admin.subscribe(ws, AgentRunEvents, { runId });
    await collected.ended;
    await ws.dispose();
    expect(collected.errors).toEqual([]);
    const events = collected.items.map((item) => item.runEvents);
    const { run } = await api.admin.request(AgentStoredRun, { id: runId });
    expect(run!.events).toEqual(events);
    expect(run!.status).toBe("COMPLETED");
    expect(run!.result).toBe("The sky is blue because air scatters blue light (Rayleigh scattering).");

    const steps = events.filter((event) => event.__typename === "AgentStepEvent");
    expect(steps.map((event) => event.__typename === "AgentStepEvent" && [event.step, event.calls.map((call) => call.tool), event.finishReason])).toEqual([
      [1, ["search_docs", "search_missing"], "tool_calls"],
      [2, [], "stop"],
    ]);
    const called = events.flatMap((event) => (event.__typename === "ToolCalledEvent" ? [[event.invocation, event.tool, event.arguments]] : []));
    expect(called.sort()).toEqual([
      ["research@1.1", "search_docs", { query: "sky colour" }],
      ["research@1.2", "search_missing", { query: "sky" }],
    ]);
    const results = events.flatMap((event) => (event.__typename === "ToolResultEvent" ? [[event.invocation, event.ok, event.summary]] : []));
    expect(results.sort()).toEqual([
      ["research@1.1", true, expect.stringContaining("The sky colour is blue")],
      ["research@1.2", false, expect.stringMatching(/^KNOWLEDGE_BASE_NOT_FOUND: /)],
    ]);

    const calls = run!.nodeRuns.filter((nodeRun) => nodeRun.invocation.startsWith("research@"));
    expect(calls.map((nodeRun) => [nodeRun.invocation, nodeRun.nodeType, nodeRun.status]).sort()).toEqual([
      ["research@1.1", "tool", "COMPLETED"],
      ["research@1.2", "tool", "FAILED"],
    ]);
    expect(run!.nodeRuns.find((nodeRun) => nodeRun.nodeId === "research" && nodeRun.invocation === "")).toMatchObject({ nodeType: "agent", status: "COMPLETED" });
  });

  test("a published workflow is a tool: its input nodes are the parameters, a call runs its latest version inside the call and returns its result", async () => {
    const shout = await api.admin.request(ImportWorkflow, { document: SHOUT });
    expect(shout.importWorkflow.errors).toEqual([]);
    const shoutId = shout.importWorkflow.workflow!.id;
    const { publishWorkflow } = await api.admin.request(Publish, { id: shoutId });
    expect(publishWorkflow.errors).toEqual([]);
    const caller = await api.admin.request(ImportWorkflow, { document: callerOf(shoutId) });
    expect(caller.importWorkflow.errors).toEqual([]);
    const { runWorkflow } = await api.admin.request(RunWorkflow, { workflowId: caller.importWorkflow.workflow!.id });
    const ws = api.admin.ws();
    const collected = api.admin.subscribe(ws, AgentRunEvents, { runId: runWorkflow.run!.id });
    await collected.ended;
    await ws.dispose();
    const events = collected.items.map((item) => item.runEvents);
    const { run } = await api.admin.request(AgentStoredRun, { id: runWorkflow.run!.id });
    expect(run!.status).toBe("COMPLETED");
    const results = events.flatMap((event) => (event.__typename === "ToolResultEvent" ? [[event.invocation, event.ok, event.summary]] : []));
    expect(results.sort()).toEqual([
      ["caller@1.1", true, "Gwangju!!! (loud)"],
      ["caller@1.2", false, expect.stringMatching(/^TOOL_ARGUMENTS_INVALID: /)],
    ]);
    expect(run!.nodeRuns.find((nodeRun) => nodeRun.invocation === "caller@1.1")).toMatchObject({ nodeType: "tool", status: "COMPLETED", output: "Gwangju!!! (loud)" });
    // The called workflow ran inside the call: it is not a run of its own.
    const { runs } = await api.admin.request(ShoutRuns, { workflowId: shoutId });
    expect(runs.totalCount).toBe(0);
  });

  test("an agent calls an MCP tool, a workflow tool and an http tool in one step, with secrets in the MCP and HTTP headers; mcpServers lists the server's tools", async () => {
    const weather = await startMcpTestServer([{ name: "forecast", description: "The forecast of a city.", args: ["city"], answer: ({ city }) => `sunny in ${city}` }]);
    const geo = await startHttpTestServer();
    const dir = await mkdtemp(path.join(os.tmpdir(), "weft-mcp-"));
    const file = path.join(dir, "providers.json");
    await writeFile(file, JSON.stringify({ mcp: { weather: { url: weather.url, headers: { Authorization: "Bearer {secret.MCP_TOKEN}" } } } }));
    // Loopback is refused unless allowed: the test's HTTP server is on 127.0.0.1.
    const app = await startTestApp(suite.db(), { env: { WEFT_PROVIDERS_FILE: file, WEFT_HTTP_ALLOW: "127.0.0.1" } });
    try {
      expect(await app.app.services.secrets.create("MCP_TOKEN", "mcp-token-5e2a9c")).toMatchObject({ ok: true });
      const { mcpServers } = await app.admin.request(McpServers, {});
      expect(mcpServers).toEqual([{ name: "weather", transport: "http", target: weather.url, error: null, tools: [{ name: "forecast", description: "The forecast of a city.", inputSchema: expect.objectContaining({ type: "object" }) }] }]);
      const shout = await app.admin.request(ImportWorkflow, { document: SHOUT });
      const shoutId = shout.importWorkflow.workflow!.id;
      expect((await app.admin.request(Publish, { id: shoutId })).publishWorkflow.errors).toEqual([]);
      const both = callerOf(shoutId);
      const agent = both.nodes[1] as Record<string, unknown>;
      const geocode = {
        type: "http",
        name: "geocode",
        description: "Where a city is.",
        parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        request: { url: `${geo.origin}/echo?city={args.city}`, headers: { "X-Key": "{secret.MCP_TOKEN}" } },
      };
      agent["tools"] = [{ type: "workflow", workflowId: shoutId }, { type: "mcp", server: "weather" }, geocode];
      const toolCalls = [
        { name: "forecast", arguments: '{"city": "Gwangju"}' },
        { name: "Shout_a_city", arguments: '{"city": "Gwangju"}' },
        { name: "geocode", arguments: '{"city": "Gwangju"}' },
      ];
      agent["params"] = { replies: [{ toolCalls }, "Sunny, and shouted."] };
      const imported = await app.admin.request(ImportWorkflow, { document: both });
      expect(imported.importWorkflow.errors).toEqual([]);
      const { runWorkflow } = await app.admin.request(RunWorkflow, { workflowId: imported.importWorkflow.workflow!.id });
      const ws = app.admin.ws();
      const collected = app.admin.subscribe(ws, AgentRunEvents, { runId: runWorkflow.run!.id });
      await collected.ended;
      await ws.dispose();
      const results = collected.items.map((item) => item.runEvents).flatMap((event) => (event.__typename === "ToolResultEvent" ? [[event.invocation, event.tool, event.ok, event.summary]] : []));
      expect(results.sort()).toEqual([
        ["caller@1.1", "forecast", true, "sunny in Gwangju"],
        ["caller@1.2", "Shout_a_city", true, "Gwangju!!! (loud)"],
        ["caller@1.3", "geocode", true, expect.stringMatching(/^\{"status":200,"body":\{"method":"GET","path":"\/echo\?city=Gwangju"/)],
      ]);
      expect(weather.calls).toEqual([{ tool: "forecast", args: { city: "Gwangju" }, authorization: "Bearer mcp-token-5e2a9c" }]);
      expect(geo.received.map((request) => [request.path, request.headers["x-key"]])).toEqual([["/echo?city=Gwangju", "mcp-token-5e2a9c"]]);
      const { run } = await app.admin.request(AgentStoredRun, { id: runWorkflow.run!.id });
      expect(run!.result).toBe("Sunny, and shouted.");
      // The echoed secret is [secret] in the tool's result, and its value is stored nowhere.
      const stored = JSON.stringify([collected.items, run, await suite.db().prisma.runEvent.findMany({}), await suite.db().prisma.nodeRun.findMany({})]);
      expect(stored).toContain("[secret]");
      expect(stored).not.toContain("mcp-token-5e2a9c");
    } finally {
      await app.close();
      await geo.stop();
      await weather.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
}, { modes: ["embedded"] });
