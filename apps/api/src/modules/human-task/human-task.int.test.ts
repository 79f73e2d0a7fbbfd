import { afterEach, beforeEach, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";
import { CancelRun, RunWorkflow } from "../../testing/operations.js";
import { approvalDocument } from "../../testing/workflows.js";

/**
 * Human steps through the real server on both databases (SPEC-V3 §2): a run that reaches a human node
 * waits (WAITING, no process holding it), survives a restart of the server, and goes on when its task
 * is completed over the API; answers that do not fit are refused with nothing changed; exactly one of
 * two completions at once wins; cancelling and deleting runs closes and removes their tasks; timeouts
 * fire after a restart too.
 */

const Import = graphql(`
  mutation HtImport($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message field } } }
`);

const RunState = graphql(`
  query HtRun($id: ID!) {
    run(id: $id) {
      status
      result
      error { code message }
      nodeRuns { nodeId invocation status }
      events(limit: 500) { seq type nodeId invocation }
    }
  }
`);

const Tasks = graphql(`
  query HtTasks($status: [HumanTaskStatus!], $workflowId: ID, $assignee: String) {
    humanTasks(status: $status, workflowId: $workflowId, assignee: $assignee, first: 50) {
      totalCount
      edges { node { id runId workflowId nodeId invocation title instructions actions { id label } form input editable status assignee expiresAt completedBy action data comment } }
    }
  }
`);

const Task = graphql(`
  query HtTask($id: ID!) { humanTask(id: $id) { id status action data comment completedBy completedAt } }
`);

const Complete = graphql(`
  mutation HtComplete($id: ID!, $input: CompleteHumanTaskInput!) {
    completeHumanTask(id: $id, input: $input) {
      task { id status action data comment completedBy }
      errors { code message path }
    }
  }
`);

const DeleteRun = graphql(`
  mutation HtDeleteRun($id: ID!) { deleteRun(id: $id) { deletedRunId errors { code } } }
`);

type Review = Record<string, unknown>;

const approval = (review: Review = {}) => approvalDocument("Approve the draft", { assignee: "editors", ...review });

describeEachDatabase("human steps over the API", (suite) => {
  let api: TestApp;
  // Starting the server takes seconds on a loaded machine; a hang still fails, at this bound.
  beforeEach(async () => {
    api = await startTestApp(suite.db());
  }, 120_000);
  afterEach(async () => {
    await api.close();
  });

  async function start(document: unknown): Promise<{ workflowId: string; runId: string }> {
    const { importWorkflow } = await api.admin.request(Import, { document });
    expect(importWorkflow.errors).toEqual([]);
    const workflowId = importWorkflow.workflow!.id;
    const { runWorkflow } = await api.admin.request(RunWorkflow, { workflowId });
    expect(runWorkflow.errors).toEqual([]);
    return { workflowId, runId: runWorkflow.run!.id };
  }

  /** Polls the run until it has the status (a hang is the test's timeout). */
  async function until(runId: string, status: string) {
    for (;;) {
      const { run } = await api.admin.request(RunState, { id: runId });
      if (run!.status === status) return run!;
      if (!["QUEUED", "RUNNING", "WAITING"].includes(run!.status)) throw new Error(`run ended ${run!.status}, not ${status}: ${JSON.stringify(run!.error)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function openTasks(workflowId: string) {
    const { humanTasks } = await api.admin.request(Tasks, { status: ["OPEN"], workflowId });
    return humanTasks.edges.map((edge) => edge.node);
  }

  test("a run waits for its task, survives a restart of the server, and completes on the chosen port once the task is completed", async () => {
    const { workflowId, runId } = await start(approval());
    const waiting = await until(runId, "WAITING");
    expect(waiting.events.map((event) => event.type).slice(-3)).toEqual(["NODE_STARTED", "NODE_WAITING", "RUN_WAITING"]);
    const [task] = await openTasks(workflowId);
    expect(task).toMatchObject({
      runId,
      workflowId,
      nodeId: "review",
      invocation: "",
      title: "Check: The sky is blue.",
      actions: [{ id: "approve", label: "Approve" }, { id: "reject", label: "Reject" }],
      input: "The sky is blue.",
      editable: false,
      status: "OPEN",
      assignee: "editors",
      expiresAt: null,
    });

    // A new server process over the same database: nothing of the run was held in memory.
    await api.close();
    api = await startTestApp(suite.db());
    expect((await api.admin.request(RunState, { id: runId })).run!.status).toBe("WAITING");

    const { completeHumanTask } = await api.admin.request(Complete, { id: task!.id, input: { action: "approve", comment: "fine by me" } });
    expect(completeHumanTask.errors).toEqual([]);
    expect(completeHumanTask.task).toMatchObject({ status: "COMPLETED", action: "approve", comment: "fine by me", completedBy: "admin (WEFT_ADMIN_KEY)" });
    const done = await until(runId, "COMPLETED");
    expect(done.result).toBe("published: The sky is blue.");
    const types = done.events.map((event) => `${event.type}${event.nodeId ? ` ${event.nodeId}` : ""}`);
    expect(types.slice(types.indexOf("RUN_WAITING"), types.indexOf("RUN_WAITING") + 4)).toEqual(["RUN_WAITING", "RUN_RESUMED", "HUMAN_TASK_COMPLETED review", "NODE_COMPLETED review"]);
    expect(types.filter((type) => type === "NODE_STARTED review")).toHaveLength(1);
    expect(done.nodeRuns.find((nodeRun) => nodeRun.nodeId === "review")).toMatchObject({ status: "COMPLETED" });
    expect(await openTasks(workflowId)).toEqual([]);
  });

  test("refuses an unknown action and data that does not fit the form, with the path, changing nothing; a second completion finds the task closed", async () => {
    const form = { type: "object", properties: { score: { type: "integer", minimum: 1, maximum: 5 } }, required: ["score"] };
    const { workflowId, runId } = await start(approval({ form }));
    await until(runId, "WAITING");
    const [task] = await openTasks(workflowId);
    const unknown = await api.admin.request(Complete, { id: task!.id, input: { action: "maybe", data: { score: 3 } } });
    expect(unknown.completeHumanTask).toMatchObject({ task: null, errors: [{ code: "HUMAN_ACTION_UNKNOWN", path: ["input", "action"] }] });
    const invalid = await api.admin.request(Complete, { id: task!.id, input: { action: "approve", data: { score: 9 } } });
    expect(invalid.completeHumanTask).toMatchObject({ task: null, errors: [{ code: "HUMAN_INPUT_INVALID", path: ["input", "data", "score"] }] });
    expect((await api.admin.request(Task, { id: task!.id })).humanTask).toMatchObject({ status: "OPEN", action: null, data: null, completedAt: null });
    expect((await api.admin.request(RunState, { id: runId })).run!.status).toBe("WAITING");

    const ok = await api.admin.request(Complete, { id: task!.id, input: { action: "reject", data: { score: 2 } } });
    expect(ok.completeHumanTask.errors).toEqual([]);
    const again = await api.admin.request(Complete, { id: task!.id, input: { action: "approve", data: { score: 5 } } });
    expect(again.completeHumanTask).toMatchObject({ task: null, errors: [{ code: "HUMAN_TASK_CLOSED", path: ["id"] }] });
    expect((await until(runId, "COMPLETED")).result).toBe("rejected");
    expect((await api.admin.request(Task, { id: task!.id })).humanTask).toMatchObject({ action: "reject", data: { score: 2 } });
  });

  test("of two completions at once exactly one wins, and the run goes on once", async () => {
    const { workflowId, runId } = await start(approval());
    await until(runId, "WAITING");
    const [task] = await openTasks(workflowId);
    const [first, second] = await Promise.all([
      api.admin.request(Complete, { id: task!.id, input: { action: "approve" } }),
      api.admin.request(Complete, { id: task!.id, input: { action: "reject" } }),
    ]);
    const outcomes = [first.completeHumanTask, second.completeHumanTask];
    expect(outcomes.filter((outcome) => outcome.errors.length === 0)).toHaveLength(1);
    expect(outcomes.flatMap((outcome) => outcome.errors.map((error) => error.code))).toEqual(["HUMAN_TASK_CLOSED"]);
    const winner = outcomes.find((outcome) => outcome.task)!.task!;
    const done = await until(runId, "COMPLETED");
    expect(done.result).toBe(winner.action === "approve" ? "published: The sky is blue." : "rejected");
    expect(done.events.filter((event) => event.type === "HUMAN_TASK_COMPLETED")).toHaveLength(1);
  });

  test("cancelling a waiting run cancels its open task; deleting the run removes it", async () => {
    const { workflowId, runId } = await start(approval());
    await until(runId, "WAITING");
    const [task] = await openTasks(workflowId);
    const { cancelRun } = await api.admin.request(CancelRun, { id: runId });
    expect(cancelRun.errors).toEqual([]);
    expect(cancelRun.run!.status).toBe("CANCELLED");
    const cancelled = await api.admin.request(RunState, { id: runId });
    expect(cancelled.run!.events.filter((event) => event.type === "NODE_FAILED").map((event) => event.nodeId)).toEqual(["review"]);
    expect(cancelled.run!.events.at(-1)).toMatchObject({ type: "RUN_CANCELLED" });
    expect((await api.admin.request(Task, { id: task!.id })).humanTask).toMatchObject({ status: "CANCELLED" });
    const late = await api.admin.request(Complete, { id: task!.id, input: { action: "approve" } });
    expect(late.completeHumanTask.errors.map((error) => error.code)).toEqual(["HUMAN_TASK_CLOSED"]);
    expect((await api.admin.request(DeleteRun, { id: runId })).deleteRun.errors).toEqual([]);
    expect((await api.admin.request(Task, { id: task!.id })).humanTask).toBeNull();
    expect(await suite.db().prisma.humanTask.count()).toBe(0);
  });

  test("a task that times out takes onTimeout, also when the server restarted while it waited", async () => {
    const { workflowId, runId } = await start(approval({ timeoutSeconds: 2, onTimeout: "reject" }));
    await until(runId, "WAITING");
    const [task] = await openTasks(workflowId);
    expect(Date.parse(task!.expiresAt as string)).toBeGreaterThan(Date.now() - 2_000);
    await api.close();
    api = await startTestApp(suite.db());
    const done = await until(runId, "COMPLETED");
    expect(done.result).toBe("rejected");
    expect((await api.admin.request(Task, { id: task!.id })).humanTask).toMatchObject({ status: "EXPIRED", action: "reject", completedBy: null });
  });

  test("a timer that fires early is told when its task is due; once due the task expires once, whoever tries again", async () => {
    const { workflowId, runId } = await start(approval({ timeoutSeconds: 3600, onTimeout: "approve" }));
    await until(runId, "WAITING");
    const [task] = await openTasks(workflowId);
    const humanTasks = api.app.services.humanTasks;
    expect((await humanTasks.expire(task!.id))?.toISOString()).toBe(new Date(task!.expiresAt as string).toISOString());
    expect((await api.admin.request(Task, { id: task!.id })).humanTask).toMatchObject({ status: "OPEN" });
    // Its time comes (as if an hour went by).
    await suite.db().prisma.humanTask.update({ where: { id: task!.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect(await humanTasks.expire(task!.id)).toBeNull();
    expect(await humanTasks.expire(task!.id)).toBeNull();
    expect((await until(runId, "COMPLETED")).result).toBe("published: The sky is blue.");
    expect((await api.admin.request(Task, { id: task!.id })).humanTask).toMatchObject({ status: "EXPIRED", action: "approve" });
    expect((await api.admin.request(RunState, { id: runId })).run!.events.filter((event) => event.type === "HUMAN_TASK_COMPLETED")).toHaveLength(1);
  });

  test("a task that times out without onTimeout fails its node with HUMAN_TIMEOUT", async () => {
    const { runId } = await start(approval({ timeoutSeconds: 1 }));
    const failed = await until(runId, "FAILED");
    expect(failed.error).toMatchObject({ code: "NODE_FAILED" });
    expect(failed.nodeRuns.find((nodeRun) => nodeRun.nodeId === "review")).toMatchObject({ status: "FAILED" });
  });
});
