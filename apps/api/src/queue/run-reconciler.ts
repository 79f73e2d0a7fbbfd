import type { PrismaClient } from "../generated/prisma/client.js";
import type { Logger } from "../logger.js";

/** The advisory lock key of the reconciler: one process at a time looks for runs without a job. */
const RECONCILER_LOCK = "weft:run-reconciler";
/** A run younger than this may still be on its way to the queue. */
const GRACE_MS = 10_000;
/** Runs looked at per pass. */
const PAGE = 500;

export interface JobLookup {
  /** Whether the queue holds a job (waiting, active, delayed…) for the run. */
  hasJob(runId: string): Promise<boolean>;
  enqueue(runId: string): void;
}

/** The ingestion queue, as the reconciler sees it: knowledge bases with PENDING documents and no pass. */
export interface IngestionLookup {
  hasJob(knowledgeBaseId: string): Promise<boolean>;
  enqueue(knowledgeBaseId: string): Promise<void>;
}

/**
 * PostgreSQL is the source of truth, Redis only carries the work: a run that is QUEUED or RUNNING in the
 * database but has no job in the queue (and likewise a knowledge base with PENDING documents and no
 * ingestion pass) (Redis lost its data, the process that accepted it stopped before
 * adding it, BullMQ dropped it) is re-enqueued, and a worker then claims it as a new attempt. One process
 * at a time does it, chosen by a PostgreSQL advisory lock taken for the pass (any worker may lead; the
 * others skip that pass).
 */
export class RunReconciler {
  readonly #timer: NodeJS.Timeout;
  #pass: Promise<number> = Promise.resolve(0);
  #stopped = false;

  constructor(
    private readonly db: PrismaClient,
    private readonly jobs: JobLookup,
    private readonly logger: Logger,
    everyMs: number,
    private readonly ingestion: IngestionLookup | null = null,
  ) {
    this.#timer = setInterval(() => {
      this.#pass = this.#pass.then(() => this.reconcile()).catch((error: unknown) => {
        this.logger.warn({ err: { message: (error as Error).message } }, "run reconciliation failed; will try again");
        return 0;
      });
    }, everyMs);
    this.#timer.unref();
  }

  /** One pass; returns how many runs were re-enqueued (0 when another process leads this pass). */
  async reconcile(): Promise<number> {
    if (this.#stopped) return 0;
    return this.db.$transaction(async (tx) => {
      const [lock] = await tx.$queryRaw<{ leader: boolean }[]>`SELECT pg_try_advisory_xact_lock(hashtext(${RECONCILER_LOCK})) AS leader`;
      if (!lock?.leader) return 0;
      const before = new Date(Date.now() - GRACE_MS);
      const active = await tx.run.findMany({
        where: { status: { in: ["QUEUED", "RUNNING"] }, createdAt: { lt: before } },
        orderBy: { createdAt: "asc" },
        select: { id: true },
        take: PAGE,
      });
      let requeued = 0;
      for (const { id } of active) {
        if (this.#stopped || (await this.jobs.hasJob(id))) continue;
        this.jobs.enqueue(id);
        requeued += 1;
      }
      if (requeued > 0) this.logger.warn({ runs: requeued }, "re-enqueued active runs that had no job in the queue");
      return requeued + (await this.#reconcileIngestion(tx, before));
    }, { timeout: 60_000 });
  }

  /**
   * Knowledge bases with documents PENDING or INDEXING for a while and no pass waiting or running get one
   * (a document INDEXING with no pass anywhere was left by a process killed mid-document; the pass takes
   * it over).
   */
  async #reconcileIngestion(tx: Pick<PrismaClient, "document">, before: Date): Promise<number> {
    if (!this.ingestion) return 0;
    const waiting = await tx.document.findMany({
      where: { status: { in: ["PENDING", "INDEXING"] }, updatedAt: { lt: before } },
      distinct: ["knowledgeBaseId"],
      select: { knowledgeBaseId: true },
      take: PAGE,
    });
    let requeued = 0;
    for (const { knowledgeBaseId } of waiting) {
      if (this.#stopped || (await this.ingestion.hasJob(knowledgeBaseId))) continue;
      void this.ingestion.enqueue(knowledgeBaseId);
      requeued += 1;
    }
    if (requeued > 0) this.logger.warn({ knowledgeBases: requeued }, "re-enqueued knowledge bases whose PENDING or INDEXING documents had no ingestion pass");
    return requeued;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#pass;
  }
}
