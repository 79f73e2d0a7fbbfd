import { afterEach, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";
import { RunWorkflow } from "../../testing/operations.js";

/**
 * Threads through the real server (HTTP for queries and mutations, WebSocket for the run events) on both
 * databases: a second turn that sees the first turn's messages and thread state, the thread created for
 * a workflow that reads one, retention, one run at a time per thread (THREAD_BUSY), listing and deletion.
 */

const ImportThreadWorkflow = graphql(`
  mutation ThrImport($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }
`);

const ThreadRunEvents = graphql(`
  subscription ThrEvents($runId: ID!) { runEvents(runId: $runId, afterSeq: 0) { seq type } }
`);

const ThreadDetail = graphql(`
  query ThrThread($id: ID!, $first: Int) {
    thread(id: $id) {
      id
      workflowId
      state
      lastSeq
      busy
      messages(first: $first) { totalCount edges { node { seq role content runId } } }
      runs { totalCount edges { node { id status threadId } } }
    }
  }
`);

const ThreadRun = graphql(`
  query ThrRun($id: ID!) { run(id: $id) { status result threadId } }
`);

const Threads = graphql(`
  query ThrList($workflowId: ID!, $first: Int, $after: String) {
    threads(workflowId: $workflowId, first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { id } } }
  }
`);

const DeleteThread = graphql(`
  mutation ThrDelete($id: ID!) { deleteThread(id: $id) { id errors { code message path } } }
`);

/**
 *  question ─► past (history) ─► reply (template) ─► answer
 *     └──────────────────────────────┘
 *  question writes `asked` (append, scope thread); reply shows the history, `asked` and the question.
 */
function conversation(delayMs = 0) {
  const reply =
    delayMs === 0
      ? { id: "reply", type: "template", template: "Earlier: {input.past} | Asked: {state.asked} | Now: {input.question}" }
      : { id: "reply", type: "llm", provider: "offline", model: "scripted", params: { replies: ["slow reply"], delayMs } };
  return {
    format: "weft.workflow/v2",
    name: "conversation",
    state: { asked: { reducer: "append", scope: "thread" } },
    nodes: [
      { id: "question", type: "input", content: "", writes: "asked" },
      { id: "past", type: "history", maxMessages: 10 },
      reply,
      { id: "answer", type: "output" },
    ],
    edges: [
      { source: "question", target: "past" },
      { source: "question", target: "reply" },
      { source: "past", target: "reply" },
      { source: "reply", target: "answer" },
    ],
  };
}

describeEachDatabase("threads over HTTP and WebSocket", (suite) => {
  let api: TestApp | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  async function importDocument(document: unknown): Promise<string> {
    const { importWorkflow } = await api!.admin.request(ImportThreadWorkflow, { document });
    expect(importWorkflow.errors).toEqual([]);
    return importWorkflow.workflow!.id;
  }

  function start(workflowId: string, content: string, threadId?: string) {
    return api!.admin.request(RunWorkflow, { workflowId, input: { draft: true, inputs: [{ nodeId: "question", content }], ...(threadId ? { threadId } : {}) } });
  }

  /** Waits over WebSocket for the run's terminal event, then reads the run. */
  async function finished(runId: string) {
    const ws = api!.admin.ws();
    const collected = api!.admin.subscribe(ws, ThreadRunEvents, { runId });
    await collected.ended;
    await ws.dispose();
    return (await api!.admin.request(ThreadRun, { id: runId })).run!;
  }

  async function turn(workflowId: string, content: string, threadId?: string) {
    const { runWorkflow } = await start(workflowId, content, threadId);
    expect(runWorkflow.errors).toEqual([]);
    return finished(runWorkflow.run!.id);
  }

  test("a second turn sees the first turn's messages and thread state; the thread was created for the first", async () => {
    api = await startTestApp(suite.db());
    const workflowId = await importDocument(conversation());
    const first = await turn(workflowId, "Is Mudeungsan open at night?");
    expect(first).toMatchObject({ status: "COMPLETED", result: 'Earlier:  | Asked: ["Is Mudeungsan open at night?"] | Now: Is Mudeungsan open at night?' });
    const threadId = first.threadId!;
    expect(threadId).toEqual(expect.any(String));

    const second = await turn(workflowId, "And the markets?", threadId);
    expect(second.threadId).toBe(threadId);
    expect(second.result).toBe(
      `Earlier: User: Is Mudeungsan open at night?\n\nAssistant: ${first.result} | Asked: ["Is Mudeungsan open at night?","And the markets?"] | Now: And the markets?`,
    );

    const { thread } = await api.admin.request(ThreadDetail, { id: threadId });
    expect(thread).toMatchObject({ workflowId, lastSeq: 4, busy: false, state: { asked: ["Is Mudeungsan open at night?", "And the markets?"] } });
    expect(thread!.messages.edges.map(({ node }) => [node.seq, node.role, node.content])).toEqual([
      [1, "USER", "Is Mudeungsan open at night?"],
      [2, "ASSISTANT", first.result],
      [3, "USER", "And the markets?"],
      [4, "ASSISTANT", second.result],
    ]);
    expect(thread!.runs.totalCount).toBe(2);
    expect(thread!.runs.edges.every(({ node }) => node.status === "COMPLETED" && node.threadId === threadId)).toBe(true);
  });

  test("retention keeps the newest messages, and history reads only what is kept", async () => {
    api = await startTestApp(suite.db(), { env: { WEFT_THREAD_MAX_MESSAGES: "3" } });
    const workflowId = await importDocument(conversation());
    const first = await turn(workflowId, "one");
    const threadId = first.threadId!;
    await turn(workflowId, "two", threadId);
    const third = await turn(workflowId, "three", threadId);
    expect(third.result).toMatch(/^Earlier: Assistant: Earlier: {2}\| Asked: \["one"\] \| Now: one\n\nUser: two\n\nAssistant: Earlier: User: one/);
    const { thread } = await api.admin.request(ThreadDetail, { id: threadId });
    expect(thread!.messages.edges.map(({ node }) => node.seq)).toEqual([4, 5, 6]);
    expect(thread!.messages.totalCount).toBe(3);
    expect(thread!.state).toEqual({ asked: ["one", "two", "three"] });
  });

  test("messages past the age limit are neither shown nor read, and go at the thread's next turn", async () => {
    api = await startTestApp(suite.db(), { env: { WEFT_THREAD_MAX_AGE_DAYS: "1" } });
    const workflowId = await importDocument(conversation());
    const threadId = (await turn(workflowId, "last week")).threadId!;
    const prisma = suite.db().prisma;
    await prisma.threadMessage.updateMany({ where: { threadId }, data: { createdAt: new Date(Date.now() - 2 * 86_400_000) } });
    expect((await api.admin.request(ThreadDetail, { id: threadId })).thread!.messages.totalCount).toBe(0);
    const next = await turn(workflowId, "today", threadId);
    expect(next.result).toBe('Earlier:  | Asked: ["last week","today"] | Now: today');
    expect((await prisma.threadMessage.findMany({ where: { threadId }, orderBy: { seq: "asc" } })).map((row) => row.seq)).toEqual([3, 4]);
  });

  test("one run at a time per thread: a second start, concurrent or while it runs, is refused with THREAD_BUSY, and so is deleting it", async () => {
    api = await startTestApp(suite.db());
    const workflowId = await importDocument(conversation(1_500));
    const opening = await turn(workflowId, "hello");
    const threadId = opening.threadId!;

    const starts = await Promise.all([start(workflowId, "a", threadId), start(workflowId, "b", threadId)]);
    const accepted = starts.filter(({ runWorkflow }) => runWorkflow.errors.length === 0);
    const refused = starts.filter(({ runWorkflow }) => runWorkflow.errors.length > 0);
    expect(accepted).toHaveLength(1);
    expect(refused.map(({ runWorkflow }) => runWorkflow.errors.map((error) => [error.code, error.path]))).toEqual([[["THREAD_BUSY", ["input", "threadId"]]]]);
    expect((await api.admin.request(ThreadDetail, { id: threadId })).thread!.busy).toBe(true);
    expect((await api.admin.request(DeleteThread, { id: threadId })).deleteThread.errors.map((error) => error.code)).toEqual(["THREAD_BUSY"]);

    const runId = accepted[0]!.runWorkflow.run!.id;
    expect((await finished(runId)).status).toBe("COMPLETED");
    expect((await turn(workflowId, "c", threadId)).status).toBe("COMPLETED");

    const deleted = await api.admin.request(DeleteThread, { id: threadId });
    expect(deleted.deleteThread).toEqual({ id: threadId, errors: [] });
    expect((await api.admin.request(ThreadDetail, { id: threadId })).thread).toBeNull();
    expect((await api.admin.request(ThreadRun, { id: runId })).run).toMatchObject({ status: "COMPLETED", threadId: null });
  });

  test("threads are listed by workflow, newest first, and a thread of another workflow or none at all is refused", async () => {
    api = await startTestApp(suite.db());
    const workflowId = await importDocument(conversation());
    const other = await importDocument(conversation());
    const first = await turn(workflowId, "first");
    const second = await turn(workflowId, "second");
    await turn(other, "elsewhere");

    const page = (await api.admin.request(Threads, { workflowId, first: 1 })).threads;
    expect(page.totalCount).toBe(2);
    expect(page.edges.map(({ node }) => node.id)).toEqual([second.threadId]);
    const next = (await api.admin.request(Threads, { workflowId, first: 1, after: page.pageInfo.endCursor })).threads;
    expect(next.edges.map(({ node }) => node.id)).toEqual([first.threadId]);
    expect(next.pageInfo.hasNextPage).toBe(false);

    const foreign = await start(other, "x", first.threadId!);
    expect(foreign.runWorkflow.errors.map((error) => [error.code, error.path])).toEqual([["VALIDATION_FAILED", ["input", "threadId"]]]);
    const missing = await start(workflowId, "x", "00000000-0000-4000-8000-000000000000");
    expect(missing.runWorkflow.errors.map((error) => error.code)).toEqual(["NOT_FOUND"]);
    expect((await api.admin.request(DeleteThread, { id: "not-a-thread" })).deleteThread.errors.map((error) => error.code)).toEqual(["NOT_FOUND"]);
  });
});
