import { describe, expect, test } from "vitest";
import { pythonClientOfApi } from "../../testing/python-client.js";

type Refusal = { code: string; path: string[] | null }[];
interface ClientReport {
  inbox: { totalCount: number; edges: { node: Record<string, unknown> }[] };
  refusals: Refusal[];
  completed: { task: Record<string, unknown> | null; errors: Refusal }[];
  events: { type: string; nodeId?: string; taskId?: string; action?: string; data?: unknown; by?: string; taskIds?: string[]; result?: string }[];
  changes: { id: string; nodeId: string; status: string; action: string | null }[];
  run: { status: string; result: string; nodeRuns: { nodeId: string; status: string }[] };
}

/**
 * A client in another language, written only from the schema and the graphql-transport-ws protocol
 * (testing/clients/human-client.py: Python's urllib and the websockets package), drives a run with two
 * human steps: it reads the inbox, has answers refused (an unknown action, data off the form, a second
 * completion), completes both tasks — the first with edited data — and follows the run to its end.
 */
describe("a third-party client of the inbox", () => {
  const runClient = pythonClientOfApi<ClientReport>("human-client.py");

  test("answers a run's tasks over HTTP as they open and follows the run and the inbox over WebSocket", async () => {
    const report = await runClient();
    expect(report.inbox.totalCount).toBe(1);
    expect(report.inbox.edges[0]!.node).toMatchObject({ nodeId: "review", title: "Review: The sky is blue.", input: "The sky is blue.", editable: true, assignee: "editors", status: "OPEN" });
    expect(report.refusals).toEqual([
      [expect.objectContaining({ code: "HUMAN_ACTION_UNKNOWN", path: ["input", "action"] })],
      [expect.objectContaining({ code: "HUMAN_INPUT_INVALID", path: ["input", "data", "score"] })],
      [expect.objectContaining({ code: "HUMAN_TASK_CLOSED", path: ["id"] })],
    ]);
    expect(report.completed.map((outcome) => outcome.errors)).toEqual([[], []]);
    expect(report.completed.map((outcome) => outcome.task)).toMatchObject([
      { status: "COMPLETED", action: "approve", data: "The sky is blue, mostly.", comment: "hedged", completedBy: "admin (WEFT_ADMIN_KEY)" },
      { status: "COMPLETED", action: "ok", data: { score: 4 } },
    ]);

    const types = report.events.map((event) => `${event.type}${event.nodeId ? ` ${event.nodeId}` : ""}`);
    // Whether the run had parked (RUN_WAITING, RUN_RESUMED) before an answer came depends on timing.
    expect(types.filter((type) => /NODE_WAITING|HUMAN_TASK|NODE_STARTED (rate|published)/.test(type))).toEqual([
      "NODE_WAITING review",
      "HUMAN_TASK_COMPLETED review",
      "NODE_STARTED rate",
      "NODE_WAITING rate",
      "HUMAN_TASK_COMPLETED rate",
      "NODE_STARTED published",
    ]);
    expect(report.events.at(-1)).toMatchObject({ type: "RUN_COMPLETED", result: "published: The sky is blue, mostly." });
    expect(report.run).toMatchObject({ status: "COMPLETED", result: "published: The sky is blue, mostly." });
    const completions = report.changes.filter((change) => change.status === "COMPLETED").map((change) => [change.nodeId, change.action]);
    expect(completions).toEqual([
      ["review", "approve"],
      ["rate", "ok"],
    ]);
  }, 150_000);
});
