import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../testing/app.js";
import { openTestDatabase, type TestDatabase } from "../testing/database.js";

const run = promisify(execFile);
const CLIENT = fileURLToPath(new URL("../testing/clients/pipeline-client.py", import.meta.url));
/** Debian's python3 with its python3-websockets package (scripts/ensure-test-services.sh installs both). */
const PYTHON = process.env["WEFT_TEST_PYTHON"] ?? "/usr/bin/python3";

interface ClientReport {
  ports: Record<string, string[]>;
  refused: string[];
  valid: boolean;
  events: { seq: number; type: string; nodeId: string | null; invocation: string | null; iteration: number | null; feedback: string | null; ports: string[] | null; reason: string | null; state: Record<string, unknown> | null }[];
  run: { status: string; result: string; state: Record<string, unknown>; nodeRuns: { nodeId: string; invocation: string; status: string }[] };
}

/**
 * A client in another language, written only from the schema and the graphql-transport-ws protocol
 * (testing/clients/pipeline-client.py: Python's urllib and the websockets package), builds a looping
 * weft.workflow/v2 graph through the real API, has an edit refused, runs the graph and follows it.
 */
describe("a third-party client", () => {
  let database: TestDatabase;
  let api: TestApp;
  beforeAll(async () => {
    database = await openTestDatabase("embedded");
    api = await startTestApp(database);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await database?.close();
  });

  test("builds a looping graph edit by edit over HTTP, runs it and follows its events over WebSocket", async () => {
    const { stdout } = await run(PYTHON, [CLIENT, api.app.url, api.app.wsUrl, api.adminKey], { timeout: 120_000 });
    const report = JSON.parse(stdout) as ClientReport;
    expect(report.ports).toMatchObject({ route: ["short", "default"], check: ["pass", "retry", "fail"], draft: ["out"] });
    expect(report.refused).toEqual(["LOOP_NOT_DECLARED"]);
    expect(report.valid).toBe(true);

    const { events } = report;
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(events.find((event) => event.type === "BRANCH_TAKEN" && event.nodeId === "route")?.ports).toEqual(["default"]);
    expect(events.find((event) => event.type === "NODE_SKIPPED")).toMatchObject({ nodeId: "direct", reason: "BRANCH_NOT_TAKEN" });
    expect(events.filter((event) => event.type === "LOOP_ITERATION").map((event) => [event.iteration, event.feedback])).toEqual([
      [2, "too vague"],
      [3, "name the effect"],
    ]);
    expect(events.at(-1)).toMatchObject({ type: "RUN_COMPLETED", state: { drafts: ["draft one", "draft two", "draft three"] } });
    expect(report.run).toMatchObject({ status: "COMPLETED", result: "draft three", state: { drafts: ["draft one", "draft two", "draft three"] } });
    const drafts = report.run.nodeRuns.filter((nodeRun) => nodeRun.nodeId === "draft").map((nodeRun) => nodeRun.invocation);
    expect(drafts).toEqual(["", "regen#2", "regen#3"]);
  }, 150_000);
});
