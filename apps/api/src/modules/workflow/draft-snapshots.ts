import { Prisma, type PrismaClient, type Workflow as WorkflowRow } from "../../generated/prisma/client.js";
import { planned } from "../../db/planned.js";
import { loadWorkflow, type LockedDraft } from "./workflow-lock.js";

/** A workflow's draft read without its lock, with the guard that commits work on it (see DraftSnapshots). */
export interface DraftSnapshot extends LockedDraft {
  /**
   * A row source for the ONE statement that commits work done on this snapshot: one row while the
   * workflow is still at `editVersion`, share-locked until that statement's transaction ends (so an edit
   * waits for it, then sees what it wrote); no row once an edit has committed since the read, or the
   * workflow is gone. `INSERT … SELECT … FROM (guard)` then writes nothing.
   */
  guard: Prisma.Sql;
}

const DEFAULT_CAPACITY = 256;

/**
 * Drafts read outside the workflow's lock, for a run of the draft that commits in one statement: the
 * read takes no transaction (on the embedded database an interactive transaction holds its one session
 * across several round trips between threads, and every other statement waits), and the commit is
 * refused by the guard if an edit came in between, after which the caller starts again under the lock
 * (withLockedDraft). Every change to a draft bumps the workflow's version in its own transaction
 * (runGraphEdit), so a draft is known by its version, and its parsed graph is kept per workflow: the
 * next run of an unchanged draft reads only the workflow's row.
 *
 * Why a kept graph is never wrong: the graph is read after the row. If an edit commits in between, the
 * graph read may be newer than the row's version, but by then the workflow's version is past it, so no
 * later read of the row has that version again (versions only grow), and the guard refuses the statement
 * that used it. A graph is served only for the version its row read showed.
 */
export class DraftSnapshots {
  readonly #graphs = new Map<string, LockedDraft>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /** The workflow's draft now (null if the workflow does not exist): its row, and its graph unless kept. */
  async read(db: PrismaClient, workflowId: string): Promise<DraftSnapshot | null> {
    const [row] = await db.$queryRaw<WorkflowRow[]>(planned(Prisma.sql`SELECT w.* FROM "Workflow" w WHERE w.id = ${workflowId}`));
    if (!row) return null;
    let draft = this.#graphs.get(workflowId);
    if (draft?.editVersion === row.version) {
      this.#graphs.delete(workflowId);
    } else {
      draft = { workflow: await loadWorkflow(db, { row }), editVersion: row.version };
    }
    this.#graphs.set(workflowId, draft);
    if (this.#graphs.size > this.capacity) this.#graphs.delete(this.#graphs.keys().next().value!);
    return { ...draft, guard: draftAtVersion(workflowId, row.version) };
  }

  /**
   * The kept draft of the workflow if it is at `editVersion`, which the caller has just read from the
   * workflow's row (as read() would): then no read at all. Null when none is kept for that version.
   */
  kept(workflowId: string, editVersion: number): DraftSnapshot | null {
    const draft = this.#graphs.get(workflowId);
    if (draft?.editVersion !== editVersion) return null;
    this.#graphs.delete(workflowId);
    this.#graphs.set(workflowId, draft);
    return { ...draft, guard: draftAtVersion(workflowId, editVersion) };
  }
}

function draftAtVersion(workflowId: string, editVersion: number): Prisma.Sql {
  return Prisma.sql`SELECT w.id FROM "Workflow" w WHERE w.id = ${workflowId} AND w."version" = ${editVersion}::int FOR SHARE OF w`;
}
