import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seedWorkflow, startTestApp, type TestApp } from "../testing/app.js";
import { acquirePostgres, databaseModes, openTestDatabase, releasePostgres, type TestDatabase } from "../testing/database.js";
import { graphql } from "../testing/gql/index.js";
import { CreateApiKey, McpPublish, RunEvents, SetWorkflowMcp } from "../testing/operations.js";
import { approvalDocument, arrows } from "../testing/workflows.js";
import { McpToolsService } from "../modules/mcp-server/index.js";
import { createNodeRegistry } from "./node-registry.js";

const McpRuns = graphql(`
  query McpRuns($workflowId: ID!) { runs(workflowId: $workflowId, first: 5) { totalCount edges { node { id status version result error { code } } } } }
`);

const WorkflowsMcp = graphql(`
  query McpWorkflowsMcp { workflows(first: 100) { edges { node { name mcp { enabled toolName description } } } } }
`);

const McpImport = graphql(`
  mutation McpImport($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }
`);

const McpCompleteTask = graphql(`
  mutation McpCompleteTask($id: ID!, $input: CompleteHumanTaskInput!) { completeHumanTask(id: $id, input: $input) { task { status } errors { code } } }
`);

const WorkflowMcp = graphql(`
  query McpWorkflowMcp($id: ID!) { workflow(id: $id) { mcp { enabled toolName description } } }
`);

/**
 * The MCP server at /mcp (SPEC-V3 §3) through the real API over real HTTP, with the official SDK's
 * client: published workflows that opt in are its tools, a call is an ordinary run reported as progress,
 * a failed run is a tool error with the run's code, and the API's keys guard it.
 */
describe.each(databaseModes)("the MCP server at /mcp (%s database)", (mode) => {
  let database: TestDatabase;
  let api: TestApp;
  let mcpUrl: URL;
  let echo: string;
  let broken: string;

  const connect = async (key: string | null): Promise<Client> => {
    const client = new Client({ name: "weft-mcp-test", version: "1.0.0" });
    const headers: Record<string, string> = key === null ? {} : { Authorization: `Bearer ${key}` };
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers } }));
    return client;
  };

  const offer = async (workflowId: string, input: { enabled: boolean; toolName?: string; description?: string | null }) =>
    (await api.admin.request(SetWorkflowMcp, { workflowId, input })).setWorkflowMcp;

  beforeAll(async () => {
    if (mode === "server") await acquirePostgres();
    database = await openTestDatabase(mode);
    api = await startTestApp(database);
    mcpUrl = new URL("/mcp", api.app.url);
    //  in (no content of its own) ──▶ g1 (echo) ──▶ out
    echo = await seedWorkflow(database, arrows(["in->g1->out"], { name: "Echo answer", nodes: { in: { content: "" } } }));
    //  in ──▶ g1 (invalid-json) ──▶ out
    broken = await seedWorkflow(database, arrows(["in->g1->out"], { name: "Broken", nodes: { g1: { model: "invalid-json" } } }));
    for (const id of [echo, broken]) expect((await api.admin.request(McpPublish, { id })).publishWorkflow.errors).toEqual([]);
    expect((await offer(echo, { enabled: true, toolName: "echo_answer", description: "Echoes the question." })).errors).toEqual([]);
    expect((await offer(broken, { enabled: true })).mcp).toEqual({ enabled: true, toolName: "Broken", description: null });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await database?.close();
    if (mode === "server") await releasePostgres();
  });

  test("lists the published workflows that opt in, with their input nodes as parameters", async () => {
    //  a published workflow that does not opt in, and one that opts in but was never published
    const quiet = await seedWorkflow(database, arrows(["in->g1->out"], { name: "Quiet" }));
    await api.admin.request(McpPublish, { id: quiet });
    await offer(await seedWorkflow(database, arrows(["in->g1->out"], { name: "Unpublished" })), { enabled: true });
    const client = await connect(api.adminKey);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(["Broken", "echo_answer"]);
      expect(tools[1]).toMatchObject({
        title: "Echo answer",
        description: "Echoes the question.",
        inputSchema: { type: "object", properties: { in: { type: "string" } }, required: ["in"], additionalProperties: false },
      });
      // An input with content of its own may be left out.
      expect(tools[0]!.inputSchema).toMatchObject({ properties: { in: { type: "string" } }, required: [] });
    } finally {
      await client.close();
    }
  });

  test("tools/list pages through the offered workflows by name, the cursor being the last name", async () => {
    const { services, database: db, logger } = api.app;
    const onePerPage = new McpToolsService({ db: db.prisma, registry: createNodeRegistry(), versionContents: (ids) => services.versions.contents(ids), runs: services.runs, logger, pageSize: 1 });
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await onePerPage.list(cursor);
      expect(page.tools.length).toBe(1);
      names.push(page.tools[0]!.name);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    const client = await connect(api.adminKey);
    expect(names).toEqual((await client.listTools()).tools.map((tool) => tool.name));
    await client.close();
    expect(names.length).toBeGreaterThanOrEqual(2);
  });

  test("a call runs the latest published version as an ordinary run, reports its events as progress and returns its output", async () => {
    const client = await connect(api.adminKey);
    const progress: Progress[] = [];
    try {
      const result = await client.callTool({ name: "echo_answer", arguments: { in: "Why is the sky blue?" } }, undefined, { onprogress: (report) => progress.push(report) });
      expect(result.isError ?? false).toBe(false);
      expect(result.content).toEqual([{ type: "text", text: "Why is the sky blue?" }]);
      const runId = result._meta?.["weft/runId"];
      const runs = (await api.admin.request(McpRuns, { workflowId: echo })).runs;
      expect(runs.edges.map((edge) => edge.node)).toEqual([{ id: runId, status: "COMPLETED", version: 1, result: "Why is the sky blue?", error: null }]);
      expect(progress.length).toBeGreaterThanOrEqual(3);
      expect(progress.map((report) => report.progress)).toEqual(progress.map((_, index) => index + 1));
      expect(progress.map((report) => report.message)).toContain("NODE_COMPLETED g1");
      expect(progress.at(-1)!.message).toBe("RUN_COMPLETED");
      expect(result.structuredContent).toBeUndefined();
      // A result that is a JSON object comes as structuredContent too.
      const json = await client.callTool({ name: "echo_answer", arguments: { in: '{"answer": 42}' } });
      expect(json).toMatchObject({ content: [{ type: "text", text: '{"answer": 42}' }], structuredContent: { answer: 42 } });
    } finally {
      await client.close();
    }
  });

  test("a failed run is a tool error carrying the run's code, and the run is in the history", async () => {
    const client = await connect(api.adminKey);
    try {
      const result = await client.callTool({ name: "Broken", arguments: {} });
      expect(result.isError).toBe(true);
      const run = (await api.admin.request(McpRuns, { workflowId: broken })).runs.edges[0]!.node;
      expect(run).toMatchObject({ id: result._meta?.["weft/runId"], status: "FAILED" });
      expect(run.error?.code).toBeTruthy();
      expect(result._meta?.["weft/code"]).toBe(run.error!.code);
      expect(result.content).toEqual([{ type: "text", text: expect.stringMatching(new RegExp(`^${run.error!.code}: `)) }]);
    } finally {
      await client.close();
    }
  });

  /** A workflow whose model waits ten minutes unless aborted:  in ──▶ g1 (echo, 10 min) ──▶ out */
  const slowTool = async (name: string): Promise<string> => {
    const slow = await seedWorkflow(database, arrows(["in->g1->out"], { name, params: { delayMs: 600_000 } }));
    await api.admin.request(McpPublish, { id: slow });
    await offer(slow, { enabled: true });
    return slow;
  };

  const endedRun = async (workflowId: string) => {
    const runId = (await api.admin.request(McpRuns, { workflowId })).runs.edges[0]!.node.id;
    const ws = api.admin.ws();
    await api.admin.subscribe(ws, RunEvents, { runId, afterSeq: 0 }).ended;
    await ws.dispose();
    return (await api.admin.request(McpRuns, { workflowId })).runs.edges[0]!.node;
  };

  test("a call the client leaves (closing its connection) cancels its run", async () => {
    const slow = await slowTool("Left");
    const leave = new AbortController();
    const response = await fetch(mcpUrl, {
      method: "POST",
      signal: leave.signal,
      headers: { authorization: `Bearer ${api.adminKey}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "Left", arguments: {}, _meta: { progressToken: "t" } } }),
    });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    let text = "";
    while (!text.includes("NODE_STARTED g1")) {
      const chunk = await reader.read();
      expect(chunk.done).toBe(false);
      text += new TextDecoder().decode(chunk.value);
    }
    leave.abort();
    expect(await endedRun(slow)).toMatchObject({ status: "CANCELLED", error: { code: "RUN_CANCELLED" } });
  });

  test("a call the client cancels cancels its run", async () => {
    const slow = await slowTool("Slow");
    const client = await connect(api.adminKey);
    const abort = new AbortController();
    try {
      const call = client.callTool({ name: "Slow", arguments: {} }, undefined, {
        signal: abort.signal,
        timeout: 900_000,
        onprogress: (report) => {
          if (report.message === "NODE_STARTED g1") abort.abort();
        },
      });
      await expect(call).rejects.toThrow();
      // The SDK's client sends notifications/cancelled on a POST of its own and keeps the call's stream open.
      expect(await endedRun(slow)).toMatchObject({ status: "CANCELLED", error: { code: "RUN_CANCELLED" } });
    } finally {
      await client.close();
    }
  });

  test("a call whose run waits for a person answers RUN_WAITING at once, and the run goes on when the task is decided", async () => {
    //  draft ──▶ review (human) ─approve─▶ published ──▶ done ──▶ result
    //                           └reject──▶ rejected  ──┘
    const { importWorkflow } = await api.admin.request(McpImport, { document: approvalDocument("Approval") });
    expect(importWorkflow.errors).toEqual([]);
    const approval = importWorkflow.workflow!.id;
    expect((await api.admin.request(McpPublish, { id: approval })).publishWorkflow.errors).toEqual([]);
    await offer(approval, { enabled: true, toolName: "approve_draft" });
    const client = await connect(api.adminKey);
    let result;
    try {
      result = await client.callTool({ name: "approve_draft", arguments: {} });
    } finally {
      await client.close();
    }
    const runId = result._meta?.["weft/runId"] as string;
    expect(result).toMatchObject({ isError: true, _meta: { "weft/code": "RUN_WAITING", "weft/version": 1 } });
    const text = (result.content as { text: string }[])[0]!.text;
    const [, taskId] = /^RUN_WAITING: the run waits for a person \(task ids ([0-9a-f-]{36})\); follow it as run (\S+)$/.exec(text) ?? [];
    expect(text.endsWith(`follow it as run ${runId}`)).toBe(true);
    // The call ended without cancelling its run: it parks (its worker stores WAITING just after the
    // event; a hang here is the test's timeout), a person decides, and it completes.
    for (;;) {
      const run = (await api.admin.request(McpRuns, { workflowId: approval })).runs.edges[0]!.node;
      expect(run).toMatchObject({ id: runId, status: expect.stringMatching(/^(RUNNING|WAITING)$/) });
      if (run.status === "WAITING") break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const { completeHumanTask } = await api.admin.request(McpCompleteTask, { id: taskId!, input: { action: "approve" } });
    expect(completeHumanTask.errors).toEqual([]);
    expect(await endedRun(approval)).toMatchObject({ id: runId, status: "COMPLETED", result: "published: The sky is blue." });
  });

  test("arguments off the schema and unknown tools are tool errors, and start no run", async () => {
    const client = await connect(api.adminKey);
    try {
      const before = (await api.admin.request(McpRuns, { workflowId: echo })).runs.totalCount;
      const wrong = await client.callTool({ name: "echo_answer", arguments: { in: 42 } });
      expect(wrong).toMatchObject({ isError: true, _meta: { "weft/code": "TOOL_ARGUMENTS_INVALID" } });
      const missing = await client.callTool({ name: "echo_answer", arguments: {} });
      expect(missing.content).toEqual([{ type: "text", text: 'TOOL_ARGUMENTS_INVALID: missing required argument "in"' }]);
      const tooLong = await client.callTool({ name: "echo_answer", arguments: { in: "x".repeat(200_001) } });
      expect(tooLong).toMatchObject({ isError: true, _meta: { "weft/code": "LIMIT_EXCEEDED" } });
      expect(await client.callTool({ name: "nothing_here", arguments: {} })).toMatchObject({ isError: true, _meta: { "weft/code": "NOT_FOUND" } });
      expect((await api.admin.request(McpRuns, { workflowId: echo })).runs.totalCount).toBe(before);
    } finally {
      await client.close();
    }
  });

  test("is refused without a key (401), with a bad key (401) and with a key lacking the run scope (403)", async () => {
    await expect(connect(null)).rejects.toSatisfy((error) => error instanceof StreamableHTTPError && error.code === 401);
    await expect(connect("weft_not_a_key")).rejects.toSatisfy((error) => error instanceof StreamableHTTPError && error.code === 401);
    const readOnly = (await api.admin.request(CreateApiKey, { input: { name: "reader", scopes: ["read"] } })).createApiKey.key!;
    await expect(connect(readOnly)).rejects.toSatisfy((error) => error instanceof StreamableHTTPError && error.code === 403);

    const anonymous = await fetch(mcpUrl, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await anonymous.json()).toMatchObject({ jsonrpc: "2.0", error: { data: { code: "UNAUTHENTICATED" } } });

    const runner = (await api.admin.request(CreateApiKey, { input: { name: "runner", scopes: ["run"] } })).createApiKey.key!;
    const client = await connect(runner);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });

  test("lets browser clients from allowed origins send MCP's headers (the preflight allows Mcp-Protocol-Version)", async () => {
    const preflight = await fetch(mcpUrl, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:6274", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type, mcp-protocol-version" },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBe("http://localhost:6274");
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/\bMcp-Protocol-Version\b/);
  });

  test("refuses a body over WEFT_MAX_BODY_BYTES (413) and a GET stream (405)", async () => {
    const headers = { authorization: `Bearer ${api.adminKey}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { padding: "x".repeat(1_100_000) } });
    const tooLarge = await fetch(mcpUrl, { method: "POST", headers, body });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ error: { data: { code: "PAYLOAD_TOO_LARGE" } } });
    const get = await fetch(mcpUrl, { headers: { authorization: headers.authorization, accept: "text/event-stream" } });
    expect(get.status).toBe(405);
  });

  test("a workflow's MCP settings are checked: tool names fit model APIs and are unique", async () => {
    const other = await seedWorkflow(database, arrows(["in->g1->out"], { name: "Other" }));
    expect((await offer(other, { enabled: true, toolName: "has space" })).errors.map((error) => error.code)).toEqual(["MCP_TOOL_NAME_INVALID"]);
    expect((await offer(other, { enabled: true, toolName: "echo_answer" })).errors).toMatchObject([{ code: "MCP_TOOL_NAME_TAKEN", path: ["input", "toolName"] }]);
    expect((await offer(other, { enabled: true, description: "x".repeat(2_001) })).errors.map((error) => error.code)).toEqual(["LIMIT_EXCEEDED"]);
    expect((await offer(other, { enabled: false, toolName: "other_tool" })).mcp).toEqual({ enabled: false, toolName: "other_tool", description: null });
    // Left out, the name is kept.
    expect((await offer(other, { enabled: true })).mcp).toEqual({ enabled: true, toolName: "other_tool", description: null });
    expect((await api.admin.request(WorkflowMcp, { id: other })).workflow?.mcp).toEqual({ enabled: true, toolName: "other_tool", description: null });
  });

  test("a description left out is kept (turning the tool off and on keeps it); null clears it", async () => {
    const described = await seedWorkflow(database, arrows(["in->g1->out"], { name: "Described" }));
    expect((await offer(described, { enabled: true, description: "Answers from the handbook." })).mcp).toMatchObject({ description: "Answers from the handbook." });
    expect((await offer(described, { enabled: false })).mcp).toEqual({ enabled: false, toolName: "Described", description: "Answers from the handbook." });
    expect((await api.admin.request(WorkflowMcp, { id: described })).workflow?.mcp?.description).toBe("Answers from the handbook.");
    expect((await offer(described, { enabled: false, description: null })).mcp).toEqual({ enabled: false, toolName: "Described", description: null });
  });

  test("a list of workflows shows each one's MCP settings as its row holds them", async () => {
    const byName = new Map((await api.admin.request(WorkflowsMcp, {})).workflows.edges.map(({ node }) => [node.name, node.mcp]));
    expect(byName.get("Echo answer")).toEqual({ enabled: true, toolName: "echo_answer", description: "Echoes the question." });
    expect(byName.get("Broken")).toEqual({ enabled: true, toolName: "Broken", description: null });
    expect(byName.get("Quiet")).toEqual({ enabled: false, toolName: null, description: null });
  });
});

describe("the MCP server's rate limits", () => {
  let database: TestDatabase;
  let api: TestApp;
  let runner: string;

  beforeAll(async () => {
    database = await openTestDatabase("embedded");
    api = await startTestApp(database, { env: { WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE: "3", WEFT_RATE_LIMIT_RUNS_PER_MINUTE: "1" } });
    //  in ──▶ g1 (echo) ──▶ out
    const workflowId = await seedWorkflow(database, arrows(["in->g1->out"], { name: "Echo" }));
    await api.admin.request(McpPublish, { id: workflowId });
    await api.admin.request(SetWorkflowMcp, { workflowId, input: { enabled: true } });
    // The admin key has spent its 3 requests: the calls use a key of their own.
    runner = (await api.admin.request(CreateApiKey, { input: { name: "runner", scopes: ["run"] } })).createApiKey.key!;
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await database?.close();
  });

  /** One tools/call POST without a session (the server is stateless); the JSON-RPC answer from its SSE or JSON body. */
  const call = async (id: number) => {
    const response = await fetch(new URL("/mcp", api.app.url), {
      method: "POST",
      headers: { authorization: `Bearer ${runner}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "Echo", arguments: {} } }),
    });
    const text = await response.text();
    const json = text.startsWith("{") ? text : text.split("\n").find((line) => line.startsWith("data: ") && line.includes(`"id":${id}`))!.slice(6);
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body: JSON.parse(json) as { result?: { isError?: boolean; _meta?: Record<string, unknown> }; error?: { data?: { code?: string } } } };
  };

  test("a call spends the key's run budget (a RATE_LIMITED tool error) and every POST its request budget (429 with Retry-After)", async () => {
    expect((await call(1)).body.result).toMatchObject({ _meta: { "weft/runId": expect.any(String) } });
    expect((await call(2)).body.result).toMatchObject({ isError: true, _meta: { "weft/code": "RATE_LIMITED" } });
    expect((await call(3)).status).toBe(200);
    const refused = await call(4);
    expect(refused).toMatchObject({ status: 429, body: { error: { data: { code: "RATE_LIMITED" } } } });
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
  });
});
