import { execFile } from "node:child_process";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seedWorkflow, startTestApp, type TestApp } from "../testing/app.js";
import { openTestDatabase, type TestDatabase } from "../testing/database.js";
import { McpPublish, SetWorkflowMcp } from "../testing/operations.js";
import { arrows } from "../testing/workflows.js";

const run = promisify(execFile);
const CLIENT = fileURLToPath(new URL("../testing/clients/mcp-client.py", import.meta.url));
/** The venv scripts/ensure-test-services.sh makes with the Python `mcp` package (MCP_PYTHON_VERSION there). */
const PYTHON = process.env["WEFT_TEST_MCP_PYTHON"] ?? join(process.env["WEFT_CACHE_DIR"] ?? join(homedir(), ".cache/weft"), "python-mcp-2.3.0/bin/python");

interface ClientReport {
  server: string;
  tools: { name: string; description: string; inputSchema: Record<string, unknown> }[];
  call: { isError: boolean; text: string[]; meta: Record<string, unknown> };
  progress: { progress: number; total: number | null; message: string | null }[];
  wrongArguments: { isError: boolean; text: string[]; meta: Record<string, unknown> };
  withoutKey: { refused: boolean; error: string | null };
}

/**
 * A client that is not ours — the Python `mcp` package, the protocol's Python SDK
 * (testing/clients/mcp-client.py) — lists and calls a workflow at /mcp with a key, and is refused without one.
 */
describe("the MCP server with a third-party client", () => {
  let database: TestDatabase;
  let api: TestApp;
  let workflowId: string;
  beforeAll(async () => {
    database = await openTestDatabase("embedded");
    api = await startTestApp(database);
    //  in (no content of its own) ──▶ g1 (echo) ──▶ out
    workflowId = await seedWorkflow(database, arrows(["in->g1->out"], { name: "Echo", nodes: { in: { content: "" } } }));
    expect((await api.admin.request(McpPublish, { id: workflowId })).publishWorkflow.errors).toEqual([]);
    const offered = await api.admin.request(SetWorkflowMcp, { workflowId, input: { enabled: true, toolName: "echo", description: "Says it back." } });
    expect(offered.setWorkflowMcp.errors).toEqual([]);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await database?.close();
  });

  test("the Python mcp package lists and calls a workflow with a key, sees its progress, and is refused without one", async () => {
    const url = new URL("/mcp", api.app.url).toString();
    const { stdout } = await run(PYTHON, [CLIENT, url, api.adminKey, "echo", "in", "Bonjour"], { timeout: 120_000 });
    const report = JSON.parse(stdout) as ClientReport;
    expect(report.server).toBe("weft");
    expect(report.tools).toEqual([
      { name: "echo", description: "Says it back.", inputSchema: { type: "object", properties: { in: { type: "string", description: 'The content of input "in".' } }, required: ["in"], additionalProperties: false } },
    ]);
    expect(report.call).toMatchObject({ isError: false, text: ["Bonjour"], meta: { "weft/version": 1 } });
    const runId = report.call.meta["weft/runId"];
    expect((await database.prisma.run.findUniqueOrThrow({ where: { id: String(runId) } })).status).toBe("COMPLETED");
    expect(report.progress.map((item) => item.progress)).toEqual(report.progress.map((_, index) => index + 1));
    expect(report.progress.at(-1)?.message).toBe("RUN_COMPLETED");
    expect(report.wrongArguments).toMatchObject({ isError: true, meta: { "weft/code": "TOOL_ARGUMENTS_INVALID" } });
    expect(report.withoutKey.refused).toBe(true);
    // The Python SDK surfaces the 401's JSON-RPC error: our code is in its data.
    expect(report.withoutKey.error).toContain("'code': 'UNAUTHENTICATED'");
  }, 150_000);
});
