import { checkHumanAnswer, type JsonValue } from "@weft/engine";
import type { Prisma } from "../../generated/prisma/client.js";
import type { AuthInfo } from "../../auth/auth-info.js";
import { AppError } from "../../errors/app-error.js";
import { failure, success, type Outcome } from "../../errors/outcome.js";
import { userError, type UserError } from "../../errors/user-error.type.js";
import { ALL_RUNS, type EventBus, type HumanTaskMessage } from "../../pubsub.js";
import type { ServiceDeps } from "../../service-deps.js";
import { AsyncQueue } from "../common/async-queue.js";
import { afterCursorWhere, buildPage, readPage, type Page } from "../common/pagination.js";
import { isUuid } from "../common/uuid.js";
import { completeOpenTask, expireOpenTask } from "./human-task-closing.js";
import { MAX_COMMENT_LENGTH, type CompleteHumanTaskInput, type HumanTasksArgs } from "./human-task.input.js";
import { actionsOf, toHumanTaskObject } from "./human-task.mapper.js";
import type { HumanTaskObject } from "./human-task.type.js";

/** What the task service asks of the runs: a closed task's run goes on (RunService.continueWaiting). */
export interface TaskRuns {
  continueWaiting(runId: string): Promise<boolean>;
}

/** `by` of a task completed while authentication is off (local development). */
export const LOCAL_AUTHOR = "local";

/**
 * The inbox of tasks for people (SPEC-V3 §2): lists them, completes one (checked against the task, then
 * closed by one conditional update, then its run continued), expires one when its timer fires, and
 * streams their changes. Tasks are created by the runs that open them (stored with their NODE_WAITING).
 */
export class HumanTaskService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly bus: EventBus,
    private readonly runs: TaskRuns,
  ) {}

  async get(id: string): Promise<HumanTaskObject | null> {
    if (!isUuid(id)) return null;
    const row = await this.deps.db.humanTask.findUnique({ where: { id } });
    return row ? toHumanTaskObject(row) : null;
  }

  /** Newest first; bad page arguments throw BAD_USER_INPUT (see readPage). */
  async list(args: HumanTasksArgs): Promise<Page<HumanTaskObject>> {
    const page = readPage(args);
    const filter: Prisma.HumanTaskWhereInput = {
      ...(args.status && args.status.length > 0 ? { status: { in: args.status } } : {}),
      ...(args.workflowId ? { workflowId: args.workflowId } : {}),
      ...(args.assignee !== null && args.assignee !== undefined ? { assignee: args.assignee } : {}),
    };
    const where = page.after ? { AND: [filter, afterCursorWhere("createdAt", page.after)] } : filter;
    const [rows, totalCount] = await Promise.all([
      this.deps.db.humanTask.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: page.size + 1 }),
      this.deps.db.humanTask.count({ where: filter }),
    ]);
    return buildPage(rows, page.size, totalCount, (row) => row.createdAt, toHumanTaskObject);
  }

  /**
   * A person completes a task: refused with HUMAN_ACTION_UNKNOWN (an action it does not offer),
   * HUMAN_INPUT_INVALID (data that does not fit its form, with the path) or HUMAN_TASK_CLOSED (not open
   * any more, also when another completion won at the same moment), changing nothing; else the task is
   * COMPLETED and its run goes on.
   */
  async complete(id: string, input: CompleteHumanTaskInput, auth: AuthInfo): Promise<Outcome<HumanTaskObject>> {
    const row = isUuid(id) ? await this.deps.db.humanTask.findUnique({ where: { id } }) : null;
    if (!row) return failure(userError("NOT_FOUND", `task "${id}" does not exist`, { path: ["id"] }));
    if (row.status !== "OPEN") return failure(closedError(id, row.status));
    const comment = input.comment ?? null;
    if (comment !== null && comment.length > MAX_COMMENT_LENGTH) {
      return failure(userError("LIMIT_EXCEEDED", `comment must be at most ${MAX_COMMENT_LENGTH} characters`, { path: ["input", "comment"] }));
    }
    const task = { actions: actionsOf(row.actions).map(({ id: action }) => ({ id: action })), form: row.form as JsonValue | null, editable: row.editable, input: (row.input ?? null) as JsonValue };
    const checked = checkHumanAnswer(task, { action: input.action, data: (input.data ?? null) as JsonValue | null });
    if (checked.issues.length > 0) return failure(...checked.issues.map(answerError));
    const by = await this.#authorOf(auth);
    const closed = await completeOpenTask(this.deps.db, id, { action: input.action, data: checked.data, comment, by, at: new Date() });
    if (!closed) return failure(closedError(id, "closed"));
    await this.#closed(closed.id, closed.runId, closed.workflowId, "COMPLETED");
    return success(toHumanTaskObject(closed));
  }

  /**
   * A timer's turn: an open task past its expiresAt expires (once, whoever else tries). One still open
   * and not yet due (the timer fired early) answers when it is due, for its timer to be set again.
   */
  async expire(taskId: string): Promise<Date | null> {
    const expiry = await expireOpenTask(this.deps.db, taskId, new Date());
    if (!expiry) return null;
    if ("dueAt" in expiry) return expiry.dueAt;
    const { expired } = expiry;
    this.deps.logger.info({ taskId, runId: expired.runId, action: expired.action }, "task expired");
    await this.#closed(expired.id, expired.runId, expired.workflowId, "EXPIRED");
    return null;
  }

  /** Every change of a task (opened, completed, expired, cancelled), or only those of one workflow's runs. */
  async stream(workflowId: string | null): Promise<AsyncIterableIterator<HumanTaskObject>> {
    if (workflowId !== null && (!isUuid(workflowId) || (await this.deps.db.workflow.count({ where: { id: workflowId } })) === 0)) {
      throw new AppError("NOT_FOUND", `workflow "${workflowId}" does not exist`, { extensions: { id: workflowId } });
    }
    let unsubscribe: (() => void) | null = null;
    const out = new AsyncQueue<HumanTaskObject>(() => unsubscribe?.());
    // Each message is read as the task now is, in the order the messages came.
    let reading = Promise.resolve();
    unsubscribe = await this.bus.subscribe("humanTasks", ALL_RUNS, (message: HumanTaskMessage) => {
      if (workflowId && message.workflowId !== workflowId) return;
      reading = reading.then(async () => {
        const task = await this.get(message.taskId).catch(() => null);
        if (task) out.push(task);
      });
    });
    return out;
  }

  async #closed(taskId: string, runId: string, workflowId: string, status: "COMPLETED" | "EXPIRED"): Promise<void> {
    // Published first: the worker executing the run (if any) takes the answer live from this message.
    await this.bus.publish("humanTasks", ALL_RUNS, { taskId, runId, workflowId, status, at: new Date().toISOString() });
    await this.runs.continueWaiting(runId);
  }

  /** The API key's name (SPEC-V3 §2: `by`), or "local" when authentication is off. */
  async #authorOf(auth: AuthInfo): Promise<string> {
    if (auth.keyId === null) return LOCAL_AUTHOR;
    const key = await this.deps.db.apiKey.findUnique({ where: { id: auth.keyId }, select: { name: true } });
    return key?.name ?? auth.keyId;
  }
}

function closedError(id: string, status: string): UserError {
  return userError("HUMAN_TASK_CLOSED", `task "${id}" is ${status.toLowerCase()}; only an open task can be completed`, { path: ["id"] });
}

function answerError(issue: { code: string; message: string; path: string | null }): UserError {
  if (issue.code === "HUMAN_ACTION_UNKNOWN") return userError(issue.code, issue.message, { path: ["input", "action"] });
  const pointer = (issue.path ?? "/").split("/").slice(1).filter((segment) => segment !== "").map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
  return userError(issue.code, issue.message, { path: ["input", "data", ...pointer] });
}
