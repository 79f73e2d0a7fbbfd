import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { stringifyWorkflow } from "@weft/engine";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startApiProcess, type ApiProcess } from "../testing/api-process.js";
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
 * (testing/clients/mcp-client.py) — against the API in its own process (src/main.ts, embedded database):
 * it lists and calls a workflow at /mcp with a key, and is refused without one.
 */
describe("the MCP server with a third-party client", () => {
  const adminKey = `weft_test_${randomBytes(24).toString("base64url")}`;
  let dataDir: string;
  let api: ApiProcess;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "weft-mcp-python-"));
    api = await startApiProcess("all", { WEFT_DATA_DIR: dataDir }, adminKey);
    //  in (no content of its own) ──▶ g1 (echo) ──▶ out
    const imported = await api.admin.request<{ importWorkflow: { workflow: { id: string }; errors: unknown[] } }, unknown>(
      "mutation ($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }",
      { document: stringifyWorkflow(arrows(["in->g1->out"], { name: "Echo", nodes: { in: { content: "" } } })) },
    );
    expect(imported.importWorkflow.errors).toEqual([]);
    const workflowId = imported.importWorkflow.workflow.id;
    expect((await api.admin.request(McpPublish, { id: workflowId })).publishWorkflow.errors).toEqual([]);
    const offered = await api.admin.request(SetWorkflowMcp, { workflowId, input: { enabled: true, toolName: "echo", description: "Says it back." } });
    expect(offered.setWorkflowMcp.errors).toEqual([]);
  }, 180_000);
  afterAll(async () => {
    await api?.kill();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  test("the Python mcp package lists and calls a workflow with a key, sees its progress, and is refused without one", async () => {
    const url = new URL("/mcp", api.url).toString();
    const { stdout } = await run(PYTHON, [CLIENT, url, adminKey, "echo", "in", "Bonjour"], { timeout: 120_000 });
    const report = JSON.parse(stdout) as ClientReport;
    expect(report.server).toBe("weft");
    expect(report.tools).toEqual([
      { name: "echo", description: "Says it back.", inputSchema: { type: "object", properties: { in: { type: "string", description: 'The content of input "in".' } }, required: ["in"], additionalProperties: false } },
    ]);
    expect(report.call).toMatchObject({ isError: false, text: ["Bonjour"], meta: { "weft/version": 1 } });
    const stored = await api.admin.request<{ run: { status: string; result: string } }, unknown>("query ($id: ID!) { run(id: $id) { status result } }", { id: report.call.meta["weft/runId"] });
    expect(stored.run).toEqual({ status: "COMPLETED", result: "Bonjour" });
    expect(report.progress.map((item) => item.progress)).toEqual(report.progress.map((_, index) => index + 1));
    expect(report.progress.at(-1)?.message).toBe("RUN_COMPLETED");
    expect(report.wrongArguments).toMatchObject({ isError: true, meta: { "weft/code": "TOOL_ARGUMENTS_INVALID" } });
    expect(report.withoutKey.refused).toBe(true);
    // The Python SDK surfaces the 401's JSON-RPC error: our code is in its data.
    expect(report.withoutKey.error).toContain("'code': 'UNAUTHENTICATED'");
  }, 150_000);
});
