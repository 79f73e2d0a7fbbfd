import { readdir, readFile } from "node:fs/promises";
import { afterEach, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";
import { RunWorkflow } from "../../testing/operations.js";

/**
 * The seed templates of examples/ through the API: every one imports cleanly, and seed 004 (no knowledge
 * base needed) answers a question on a new thread, then a follow-up on that thread from its history.
 */

const EXAMPLES = new URL("../../../../../examples/", import.meta.url);

const ImportTemplate = graphql(`
  mutation SeedImport($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }
`);

const SeedRunEvents = graphql(`
  subscription SeedEvents($runId: ID!) { runEvents(runId: $runId, afterSeq: 0) { type nodeId ports } }
`);

const SeedRun = graphql(`
  query SeedRun($id: ID!) { run(id: $id) { status result threadId } }
`);

describeEachDatabase("the seed templates through the API", (suite) => {
  let api: TestApp | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  async function ask(workflowId: string, question: string, threadId?: string) {
    const { runWorkflow } = await api!.admin.request(RunWorkflow, {
      workflowId,
      input: { inputs: [{ nodeId: "user_question", content: question }], ...(threadId ? { threadId } : {}) },
    });
    expect(runWorkflow.errors).toEqual([]);
    const ws = api!.admin.ws();
    const collected = api!.admin.subscribe(ws, SeedRunEvents, { runId: runWorkflow.run!.id });
    await collected.ended;
    await ws.dispose();
    const taken = (nodeId: string) => collected.items.map((item) => item.runEvents).filter((event) => event.type === "BRANCH_TAKEN" && event.nodeId === nodeId).map((event) => event.ports);
    return { run: (await api!.admin.request(SeedRun, { id: runWorkflow.run!.id })).run!, taken };
  }

  test("every seed template imports, and seed 004 answers a follow-up from its thread's history", async () => {
    api = await startTestApp(suite.db());
    const files = (await readdir(EXAMPLES)).filter((name) => /^seed-00\d-.*\.json$/.test(name)).sort();
    expect(files).toHaveLength(4);
    const ids: Record<string, string> = {};
    for (const file of files) {
      const { importWorkflow } = await api.admin.request(ImportTemplate, { document: JSON.parse(await readFile(new URL(file, EXAMPLES), "utf8")) });
      expect({ file, errors: importWorkflow.errors }).toEqual({ file, errors: [] });
      ids[file] = importWorkflow.workflow!.id;
    }
    const codeweaver = ids["seed-004-codeweaver.json"]!;
    const first = await ask(codeweaver, "How do I limit how many requests asyncio sends at once?");
    expect(first.run).toMatchObject({ status: "COMPLETED", threadId: expect.any(String) });
    expect(first.run.result).toContain("asyncio.Semaphore");
    expect(first.taken("route_after_analysis")).toEqual([["default"]]);
    const followUp = await ask(codeweaver, "Can you explain again how the previous answer limits requests?", first.run.threadId!);
    expect(followUp.run).toMatchObject({ status: "COMPLETED", threadId: first.run.threadId });
    expect(followUp.taken("route_after_analysis")).toEqual([["clarification"]]);
    expect(followUp.run.result).toMatch(/^In the previous answer/);
  });
});
