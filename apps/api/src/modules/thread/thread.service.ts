import type { JsonValue } from "@weft/engine";
import type { Thread as ThreadRow, ThreadMessage as ThreadMessageRow } from "../../generated/prisma/client.js";
import { failure, success, type Outcome } from "../../errors/outcome.js";
import { notFoundError, userError } from "../../errors/user-error.type.js";
import type { ServiceDeps } from "../../service-deps.js";
import { afterCursorWhere, buildPage, encodeOffsetCursor, PageInfo, readBound, readOffsetCursor, readPage, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page } from "../common/pagination.js";
import { isUuid } from "../common/uuid.js";
import { retainedMessagesWhere, threadRetention } from "./thread-retention.js";
import { ThreadRoleValue, type ThreadMessageObject, type ThreadObject } from "./thread.type.js";
import { ACTIVE_RUN_STATUSES } from "../common/run-status.js";

const MESSAGE_CURSOR = "seq";

export interface MessagePageArgs {
  first?: number | null;
  after?: string | null;
  newestFirst?: boolean | null;
}

/** Threads and their messages: read, listed by workflow, deleted. Runs claim and extend them (thread-turn.ts). */
export class ThreadService {
  constructor(private readonly deps: Pick<ServiceDeps, "db" | "env">) {}

  /** A workflow's threads, newest first; bad page arguments throw BAD_USER_INPUT. */
  async list(workflowId: string, args: { first?: number | null; after?: string | null }): Promise<Page<ThreadObject>> {
    const page = readPage(args);
    if (!isUuid(workflowId)) return buildPage<ThreadRow, ThreadObject>([], page.size, 0, (row) => row.createdAt, toThreadObject);
    const filter = { workflowId };
    const where = page.after ? { AND: [filter, afterCursorWhere("createdAt", page.after)] } : filter;
    const [rows, totalCount] = await Promise.all([
      this.deps.db.thread.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: page.size + 1 }),
      this.deps.db.thread.count({ where: filter }),
    ]);
    return buildPage(rows, page.size, totalCount, (row) => row.createdAt, toThreadObject);
  }

  async get(id: string): Promise<ThreadObject | null> {
    if (!isUuid(id)) return null;
    const row = await this.deps.db.thread.findUnique({ where: { id } });
    return row && toThreadObject(row);
  }

  /** Oldest first (or newest first), by message number; messages past the age limit are not shown. */
  async messages(threadId: string, args: MessagePageArgs): Promise<Page<ThreadMessageObject>> {
    const size = readBound("first", args.first, { max: MAX_PAGE_SIZE, fallback: DEFAULT_PAGE_SIZE });
    const after = args.after ? readOffsetCursor(MESSAGE_CURSOR, args.after) : null;
    const newestFirst = args.newestFirst === true;
    const retained = retainedMessagesWhere(threadId, threadRetention(this.deps.env), new Date());
    const where = after === null ? retained : { AND: [retained, { seq: newestFirst ? { lt: after } : { gt: after } }] };
    const [rows, totalCount] = await Promise.all([
      this.deps.db.threadMessage.findMany({ where, orderBy: { seq: newestFirst ? "desc" : "asc" }, take: size + 1 }),
      this.deps.db.threadMessage.count({ where: retained }),
    ]);
    const edges = rows.slice(0, size).map((row) => ({ cursor: encodeOffsetCursor(MESSAGE_CURSOR, row.seq), node: toMessageObject(row) }));
    const pageInfo = new PageInfo();
    pageInfo.hasNextPage = rows.length > size;
    pageInfo.endCursor = edges.at(-1)?.cursor ?? null;
    return { edges, pageInfo, totalCount };
  }

  /** Whether a run of the thread is queued or running (a new run on it would be refused with THREAD_BUSY). */
  async busy(threadId: string): Promise<boolean> {
    return (await this.deps.db.run.count({ where: { threadId, status: { in: [...ACTIVE_RUN_STATUSES] } } })) > 0;
  }

  /**
   * Deletes a thread and its messages; its runs stay (without their thread). A thread with a run in
   * progress is refused with THREAD_BUSY: cancel the run first.
   */
  async delete(id: string): Promise<Outcome<string>> {
    if (!isUuid(id)) return failure(notFoundError("thread", id));
    return this.deps.db.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Thread" WHERE id = ${id} FOR UPDATE`;
      if (locked.length === 0) return failure<string>(notFoundError("thread", id));
      const active = await tx.run.findFirst({ where: { threadId: id, status: { in: [...ACTIVE_RUN_STATUSES] } }, select: { id: true } });
      if (active) return failure<string>(userError("THREAD_BUSY", `thread "${id}" has a run in progress (${active.id}); cancel it or wait for it to end`, { path: ["id"] }));
      await tx.thread.delete({ where: { id } });
      return success(id);
    });
  }
}

export function toThreadObject(row: ThreadRow): ThreadObject {
  return {
    id: row.id,
    workflowId: row.workflowId,
    state: (row.state ?? {}) as Record<string, JsonValue>,
    lastSeq: row.lastSeq,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function toMessageObject(row: ThreadMessageRow): ThreadMessageObject {
  return { seq: row.seq, role: row.role === "USER" ? ThreadRoleValue.USER : ThreadRoleValue.ASSISTANT, content: row.content, runId: row.runId, createdAt: row.createdAt };
}
