import { expect } from "vitest";
import type { Run, RunEvent as RunEventRow } from "../generated/prisma/client.js";
import { inFlight, readCrashWatch } from "../modules/run/index.js";
import type { ApiProcess } from "./api-process.js";
import type { TestDatabase } from "./database.js";
import type { TestClient } from "./graphql-client.js";
import { CreateApiKey, RunWorkflow } from "./operations.js";

/** A run as it ended, with its events in seq order. */
export type EndedRun = Omit<Run, "error"> & { events: RunEventRow[]; error: { code: string; message: string } | null };

/**
 * Callers with their own runs budget (a key each, `run` and `read`), alternating between the API
 * processes: a load of runs is not cut short by one caller's WEFT_RATE_LIMIT_RUNS_PER_MINUTE.
 */
export async function runCallers(apis: readonly ApiProcess[], count: number): Promise<TestClient[]> {
  const callers: TestClient[] = [];
  for (let index = 0; index < count; index += 1) {
    const api = apis[index % apis.length]!;
    const { createApiKey } = await api.admin.request(CreateApiKey, { input: { name: `load-${index}`, scopes: ["read", "run"] } });
    callers.push(api.admin.withKey(createApiKey.key!));
  }
  return callers;
}

/** Runs of one workflow kept going, and waited for. */
export class RunLoad {
  readonly runIds: string[];
  #started = 0;

  constructor(
    private readonly database: TestDatabase,
    private readonly callers: readonly TestClient[],
    private readonly workflowId: string,
    runIds: string[] = [],
  ) {
    this.runIds = runIds;
  }

  /** Starts runs until `count` of them are queued or running (a caller past its runs budget starts none). */
  async topUp(count: number): Promise<void> {
    const active = await this.database.prisma.run.count({ where: { id: { in: this.runIds }, status: { in: ["QUEUED", "RUNNING"] } } });
    const missing = count - active;
    if (missing <= 0 || this.callers.length === 0) return;
    const results = await Promise.all(
      Array.from({ length: missing }, (_, index) => this.callers[(this.#started + index) % this.callers.length]!.request(RunWorkflow, { workflowId: this.workflowId, input: {} })),
    );
    this.#started += missing;
    for (const result of results) if (result.runWorkflow.run) this.runIds.push(result.runWorkflow.run.id);
  }

  /** Every run once none is queued or running any more; a hang past `timeoutMs` fails with the runs still active. */
  async ended(timeoutMs: number): Promise<EndedRun[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const runs = await this.database.prisma.run.findMany({ where: { id: { in: this.runIds } }, include: { events: { orderBy: { seq: "asc" } } } });
      const active = runs.filter((run) => run.status === "QUEUED" || run.status === "RUNNING");
      if (active.length === 0) return runs as EndedRun[];
      if (Date.now() > deadline) throw new Error(`runs still active after ${timeoutMs} ms: ${active.map((run) => `${run.id} ${run.status} attempt ${run.attempt}`).join(", ")}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

const describe = (run: EndedRun) => `${run.id} (attempt ${run.attempt}): ${run.events.map((event) => `${event.seq} ${event.type} ${event.nodeKey ?? ""}`).join(", ")}`;
const invocationOf = (event: RunEventRow) => String((event.payload as { invocation?: unknown }).invocation ?? "");
const asStored = (event: RunEventRow) => ({ type: event.type, nodeId: event.nodeKey, payload: event.payload as Record<string, unknown> });

/**
 * A failed run failed by the crash rule only: RUN_ATTEMPTS_EXHAUSTED, and — read from its events, not
 * from what the server concluded — each invocation it names was in flight at each of the last
 * `maxAttempts` crashes (what the attempt before each RUN_RESUMED, and the last attempt, had started and
 * not ended).
 */
export function expectPoisoned(run: EndedRun, maxAttempts: number): void {
  const context = describe(run);
  expect(run.status, context).toBe("FAILED");
  expect(run.error?.code, context).toBe("RUN_ATTEMPTS_EXHAUSTED");
  const watch = readCrashWatch(run.crashSuspects);
  expect(watch.crashes, context).toBeGreaterThanOrEqual(maxAttempts);
  expect(watch.suspects.length, context).toBeGreaterThan(0);
  const closing = run.events.findIndex((event) => JSON.stringify(event.payload).includes("RUN_ATTEMPTS_EXHAUSTED"));
  const crashes = [...run.events.flatMap((event, index) => (event.type === "RUN_RESUMED" ? [index] : [])), closing];
  for (const boundary of crashes.slice(-maxAttempts)) {
    const open = inFlight(run.events.slice(0, boundary).map(asStored), () => false).map((item) => `${item.nodeId}@${item.invocation}`);
    for (const suspect of watch.suspects) expect(open, context).toContain(`${suspect.nodeId}@${suspect.invocation}`);
  }
}

/**
 * A completed run that was resumed any number of times: gapless seqs, every node completed once, at most
 * one resumption per attempt, and no node that had completed before a resumption started again after it.
 */
export function expectResumedCleanly(run: EndedRun, nodeIds: readonly string[]): void {
  const context = describe(run);
  expect(run.status, context).toBe("COMPLETED");
  expect(run.events.map((event) => event.seq), context).toEqual(run.events.map((_, index) => index + 1));
  for (const nodeId of nodeIds) {
    expect(run.events.filter((event) => event.type === "NODE_COMPLETED" && event.nodeKey === nodeId), `${nodeId} completed once; ${context}`).toHaveLength(1);
  }
  expect(run.events.filter((event) => event.type === "RUN_RESUMED").length, context).toBeLessThanOrEqual(run.attempt - 1);
  const completed = new Set<string>();
  for (const event of run.events) {
    const key = `${event.nodeKey}@${invocationOf(event)}`;
    if (event.type === "NODE_COMPLETED") completed.add(key);
    if (event.type === "NODE_STARTED") expect(completed.has(key), `${key} started again after it completed; ${context}`).toBe(false);
  }
}
