import { WeftError } from "@weft/engine";
import { planned } from "../../db/planned.js";
import type { RawQueryable } from "../../db/raw-sql.js";
import type { BatchWrites } from "./run-event-batch.js";
import { batchStatement } from "./run-event-sql.js";

/** At most this many runs' batches go into one statement. */
export const MAX_RUNS_PER_STATEMENT = 32;

interface Pending {
  batch: BatchWrites;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * A batch refused because its run is no longer this attempt's to write: it ended (cancelled, failed by
 * another process), or a later attempt claimed it after this worker lost its job.
 */
export class RunFencedError extends WeftError {
  constructor(runId: string, attempt: number | null) {
    super("RUN_ATTEMPT_SUPERSEDED", `run ${runId} is no longer executed by attempt ${attempt ?? "(any)"}: it ended or another worker took it over`, { audience: "operational" });
  }
}

export function isRunFenced(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) if (cause instanceof RunFencedError) return true;
  return false;
}

/**
 * Group commit across runs: the event batches of every run in the process go through one writer, and
 * the batches handed over in the same turn of the event loop, or while a statement is in flight, are
 * stored together (one statement, one commit, however many runs take part). With many runs at once —
 * many callers of one published workflow — this cuts the CPU time per run by about a third on the
 * embedded database (see docs/benchmarks.md, api-throughput). A run's batch waits for at most one
 * statement before its own.
 *
 * A combined statement that fails is retried batch by batch, so one run's bad write fails only that run.
 * A batch the statement's fence left out (see batchStatement) is refused with RunFencedError.
 *
 * The statement goes straight to the driver (the `pg` pool, or PGlite), not through Prisma's `$queryRaw`:
 * it sits on the path of every event a client waits for, and the Prisma client engine adds its own work
 * (query interpretation, parameter and result mapping) to each statement. Each statement is marked
 * `planned(...)`, so each text (its shape: how many events, which columns; the values are parameters) is
 * prepared — per connection on PostgreSQL, once per session on PGlite (planned-statements.ts) — and a
 * shape seen before is neither parsed nor, after a few executions, planned again: about 0.3 ms less
 * per batch on this machine (see docs/benchmarks.md, scale-out).
 */
export class RunEventWriter {
  #pending: Pending[] = [];
  #loop: Promise<void> | null = null;

  /** `sql`: the database's raw handle (Database.raw), the same pool or PGlite instance Prisma uses. */
  constructor(private readonly sql: Pick<RawQueryable, "query">) {}

  /** Stores one run's batch; settles when it is committed (or rejects with the failure). */
  write(batch: BatchWrites): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ batch, resolve, reject });
      if (!this.#loop) this.#loop = this.#drain();
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#pending.length > 0) {
        // One turn of the event loop first: the batches other runs hand over in it join this statement.
        // On the embedded database a statement runs on this thread, so nothing can join while it runs.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const group = this.#pending.splice(0, MAX_RUNS_PER_STATEMENT);
        await this.#store(group);
      }
    } finally {
      this.#loop = null;
    }
  }

  async #store(group: Pending[]): Promise<void> {
    try {
      const statement = planned(batchStatement(group.map((pending) => pending.batch)));
      const { rows } = await this.sql.query<{ id: string }>(statement.text, statement.values);
      const written = new Set(rows.map((row) => row.id));
      for (const pending of group) {
        if (written.has(pending.batch.runId)) pending.resolve();
        else pending.reject(new RunFencedError(pending.batch.runId, pending.batch.attempt));
      }
    } catch (error) {
      if (group.length === 1) {
        group[0]!.reject(error);
        return;
      }
      for (const pending of group) await this.#store([pending]);
    }
  }
}
