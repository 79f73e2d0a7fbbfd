import { afterEach, expect, test } from "vitest";
import { describeEachDatabase } from "../testing/database.js";
import { startTestApp, type TestApp } from "../testing/app.js";

const UNKNOWN = "00000000-0000-4000-8000-000000000000";

describeEachDatabase("subscriptions to something that does not exist", (suite) => {
  let api: TestApp | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  /** The codes a subscription ended with (it must end: a stream that waits forever is the bug). */
  async function codes(query: string, variables: Record<string, unknown>): Promise<unknown[]> {
    const ws = api!.admin.ws();
    const stream = api!.admin.subscribe(ws, query, variables);
    await stream.ended;
    await ws.dispose();
    const failures = Array.isArray(stream.failure) ? (stream.failure as typeof stream.errors) : [];
    return [...stream.errors, ...failures].map((error) => error.extensions?.["code"]);
  }

  test("workflowChanged, runStatusChanged and ingestionProgress answer NOT_FOUND for an unknown id, as runEvents does", async () => {
    api = await startTestApp(suite.db());
    expect(await codes(`subscription ($id: ID!) { runEvents(runId: $id, afterSeq: 0) { seq } }`, { id: UNKNOWN })).toEqual(["NOT_FOUND"]);
    for (const id of [UNKNOWN, "not-a-uuid"]) {
      expect(await codes(`subscription ($id: ID!) { workflowChanged(workflowId: $id) { version } }`, { id })).toEqual(["NOT_FOUND"]);
      expect(await codes(`subscription ($id: ID) { runStatusChanged(workflowId: $id) { status } }`, { id })).toEqual(["NOT_FOUND"]);
      expect(await codes(`subscription ($id: ID!) { ingestionProgress(knowledgeBaseId: $id) { phase } }`, { id })).toEqual(["NOT_FOUND"]);
    }
  });
});
