import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startHttpTestServer, type HttpTestServer } from "@weft/providers/testing";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { startApiProcess } from "../../testing/api-process.js";
import { startTestApp, TEST_SECRET_KEY, type TestApp } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";
import { RunEvents, RunWorkflow } from "../../testing/operations.js";

/**
 * The `http` node through the real server (SPEC-V3 §3) against a real HTTP server on loopback: refused
 * unless WEFT_HTTP_ALLOW allows loopback, then allowed; a redirect from an allowed destination to a refused
 * one is refused; the size and time limits fail the node with their codes; another status takes the error
 * port; a {secret.NAME} header is sent and its value, echoed by the server, is in no event, node run,
 * log, export or stored row. Every destination is on 127.0.0.1 or refused before any connection.
 */

const HttpImport = graphql(`
  mutation HttpImport($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message path } } }
`);
const HttpRun = graphql(`
  query HttpRun($id: ID!) {
    run(id: $id) { status result error { code message } nodeRuns { nodeId status output renderedPrompt error { code message } } }
  }
`);
const HttpExport = graphql(`
  query HttpExport($id: ID!) { exportWorkflow(id: $id) }
`);
const HttpCreateSecret = graphql(`
  mutation HttpCreateSecret($name: String!, $value: String!) { createSecret(name: $name, value: $value) { errors { code } } }
`);

const KEY = "sk-http-secret-4b1d9e77c0a3";

/** q ─► call (http) ─[ok]─► out, or with `errorPort`: ─[error]─► failed (template) ─► j ─► out */
function httpWorkflow(settings: Record<string, unknown>, errorPort = false) {
  const nodes: Array<Record<string, unknown>> = [{ id: "q", type: "input", content: "weft" }, { id: "call", type: "http", ...settings }, { id: "out", type: "output" }];
  const edges = [{ id: "e1", source: "q", target: "call" }];
  if (!errorPort) edges.push({ id: "e2", source: "call", sourcePort: "ok", target: "out" } as never);
  else {
    nodes.push({ id: "failed", type: "template", template: "failed: {input}" }, { id: "passed", type: "template", template: "passed: {input}" }, { id: "j", type: "join", mode: "first" });
    edges.push(
      { id: "e2", source: "call", sourcePort: "ok", target: "passed" } as never,
      { id: "e3", source: "call", sourcePort: "error", target: "failed" } as never,
      { id: "e4", source: "passed", target: "j" },
      { id: "e5", source: "failed", target: "j" },
      { id: "e6", source: "j", target: "out" },
    );
  }
  return { format: "weft.workflow/v2", name: "Calls an HTTP API", nodes, edges };
}

let server: HttpTestServer;
beforeAll(async () => {
  server = await startHttpTestServer();
});
afterAll(async () => server.stop());

describeEachDatabase(
  "http node",
  (suite) => {
    let api: TestApp | undefined;
    afterEach(async () => {
      await api?.close();
      api = undefined;
    });

    async function run(document: Record<string, unknown>) {
      const { importWorkflow } = await api!.admin.request(HttpImport, { document });
      expect(importWorkflow.errors).toEqual([]);
      const workflowId = importWorkflow.workflow!.id;
      const { runWorkflow } = await api!.admin.request(RunWorkflow, { workflowId });
      const ws = api!.admin.ws();
      const collected = api!.admin.subscribe(ws, RunEvents, { runId: runWorkflow.run!.id, afterSeq: 0 });
      await collected.ended;
      await ws.dispose();
      const stored = (await api!.admin.request(HttpRun, { id: runWorkflow.run!.id })).run!;
      const call = stored.nodeRuns.find((nodeRun) => nodeRun.nodeId === "call")!;
      // A node run's output is its value's JSON text.
      const output = typeof call.output === "string" ? (JSON.parse(call.output) as unknown) : call.output;
      return { workflowId, run: stored, call, output, events: collected.items };
    }

    test("refuses a loopback destination unless WEFT_HTTP_ALLOW allows it, and then calls it", async () => {
      api = await startTestApp(suite.db());
      const before = server.received.length;
      const refused = await run(httpWorkflow({ url: `${server.origin}/echo` }));
      expect(refused.run.status).toBe("FAILED");
      expect(refused.call.error).toMatchObject({ code: "HTTP_DESTINATION_FORBIDDEN", message: expect.stringContaining("loopback") });
      expect(server.received.length).toBe(before);
      await api.close();

      api = await startTestApp(suite.db(), { env: { WEFT_HTTP_ALLOW: "127.0.0.1/32" } });
      const allowed = await run(httpWorkflow({ method: "POST", url: `${server.origin}/echo?q={input}`, body: '{"q": {input}}', json: true }));
      expect(allowed.run.status).toBe("COMPLETED");
      expect(allowed.output).toMatchObject({ status: 200, body: { method: "POST", path: "/echo?q=weft", body: '{"q": "weft"}' } });
      expect(server.received.at(-1)!.headers["content-type"]).toBe("application/json");
    });

    test("refuses a redirect from an allowed destination to a refused one, and fails the size and time limits with their codes", async () => {
      api = await startTestApp(suite.db(), { env: { WEFT_HTTP_ALLOW: "127.0.0.1" } });
      const redirect = await run(httpWorkflow({ url: `${server.origin}/redirect?to=${encodeURIComponent("http://169.254.169.254/latest/meta-data/")}` }));
      expect(redirect.call.error).toMatchObject({ code: "HTTP_DESTINATION_FORBIDDEN", message: expect.stringContaining("169.254.169.254") });
      const toOtherLoopback = await run(httpWorkflow({ url: `${server.origin}/redirect?to=${encodeURIComponent(`http://127.0.0.2:${server.port}/echo`)}` }));
      expect(toOtherLoopback.call.error?.code).toBe("HTTP_DESTINATION_FORBIDDEN");
      const large = await run(httpWorkflow({ url: `${server.origin}/bytes/8192`, maxResponseBytes: 4096 }));
      expect(large.call.error?.code).toBe("HTTP_RESPONSE_TOO_LARGE");
      const slow = await run(httpWorkflow({ url: `${server.origin}/slow`, timeoutMs: 500 }));
      expect(slow.call.error?.code).toBe("HTTP_TIMEOUT");
      const status = await run(httpWorkflow({ url: `${server.origin}/status/503` }));
      expect(status.call.error?.code).toBe("HTTP_STATUS");
      const routed = await run(httpWorkflow({ url: `${server.origin}/status/503` }, true));
      expect(routed.run.status).toBe("COMPLETED");
      expect(routed.run.result).toMatch(/^failed: \{"status":503,"headers":\{.*\},"body":\{"status":503\}\}$/);
    });

    test("sends a {secret.NAME} header, and the value the server echoes is in no event, node run, log, export or stored row", async () => {
      api = await startTestApp(suite.db(), { env: { WEFT_HTTP_ALLOW: "127.0.0.1" }, captureLogs: true });
      expect((await api.admin.request(HttpCreateSecret, { name: "ECHO_KEY", value: KEY })).createSecret.errors).toEqual([]);
      const used = await run(httpWorkflow({ url: `${server.origin}/echo`, headers: { Authorization: "Bearer {secret.ECHO_KEY}" } }));
      expect(used.run.status).toBe("COMPLETED");
      expect(server.received.at(-1)!.headers["authorization"]).toBe(`Bearer ${KEY}`);
      expect(used.call.renderedPrompt).toContain("Authorization: Bearer {secret.ECHO_KEY}");
      expect(used.output).toMatchObject({ headers: { "x-echo-authorization": "Bearer [secret]" } });
      const failing = await run(httpWorkflow({ url: `${server.origin}/status/401`, headers: { "X-Key": "{secret.ECHO_KEY}" } }));
      expect(failing.call.error?.code).toBe("HTTP_STATUS");
      const exported = (await api.admin.request(HttpExport, { id: used.workflowId })).exportWorkflow;
      const storedEvents = await suite.db().prisma.runEvent.findMany({});
      const storedNodeRuns = await suite.db().prisma.nodeRun.findMany({});
      const everything = JSON.stringify([used, failing, exported, storedEvents, storedNodeRuns, api.logs]);
      expect(everything).toContain("[secret]");
      expect(everything).not.toContain(KEY);
    });
  },
  { modes: ["embedded"] },
);

describe("http node in an API process of its own", () => {
  test("reads WEFT_HTTP_ALLOW from its environment: the allowed address is called, another loopback address behind a redirect is refused", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "weft-http-process-"));
    const adminKey = `weft_test_${randomBytes(24).toString("base64url")}`;
    const api = await startApiProcess("all", { WEFT_DATA_DIR: dir, WEFT_SECRET_KEY: TEST_SECRET_KEY, WEFT_SEED_DEMO: "false", WEFT_HTTP_ALLOW: "127.0.0.1/32" }, adminKey);
    try {
      const outcome = async (url: string) => {
        const { importWorkflow } = await api.admin.request(HttpImport, { document: httpWorkflow({ url }) });
        expect(importWorkflow.errors).toEqual([]);
        const { runWorkflow } = await api.admin.request(RunWorkflow, { workflowId: importWorkflow.workflow!.id });
        const ws = api.admin.ws();
        await api.admin.subscribe(ws, RunEvents, { runId: runWorkflow.run!.id, afterSeq: 0 }).ended;
        await ws.dispose();
        const { run } = await api.admin.request(HttpRun, { id: runWorkflow.run!.id });
        return { status: run!.status, error: run!.nodeRuns.find((nodeRun) => nodeRun.nodeId === "call")?.error?.code ?? null };
      };
      expect(await outcome(`${server.origin}/echo`)).toEqual({ status: "COMPLETED", error: null });
      expect(await outcome(`${server.origin}/redirect?to=${encodeURIComponent(`http://127.0.0.2:${server.port}/echo`)}`)).toEqual({ status: "FAILED", error: "HTTP_DESTINATION_FORBIDDEN" });
    } finally {
      await api.kill();
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
