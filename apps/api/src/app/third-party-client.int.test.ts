import { describe, expect, test } from "vitest";
import { pythonClientOfApi } from "../testing/python-client.js";

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
  const runClient = pythonClientOfApi<ClientReport>("pipeline-client.py");

  test("builds a looping graph edit by edit over HTTP, runs it and follows its events over WebSocket", async () => {
    const report = await runClient();
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
