import { builtInRegistry, type RunEvent } from "@weft/engine";
import pino from "pino";
import { expect, test } from "vitest";
import { InProcessEventBus } from "../../pubsub.js";
import { describeEachDatabase, type TestDatabase } from "../../testing/database.js";
import { seedWorkflow } from "../../testing/app.js";
import { arrows } from "../../testing/workflows.js";
import { claimRun, type RunClaim } from "./run-claim.js";
import { judgeCrashes, readStoredEvents, type CrashJudgement } from "./run-crash-watch.js";
import { RunEventRecorder } from "./run-event-recorder.js";
import { RunEventWriter } from "./run-event-writer.js";

/**
 *  in ──▶ g1 ──▶ v1 ──▶ out
 *
 * Attempts are played by hand: each claims the run and stores what an executing worker would (a start,
 * an end), then "crashes" by stopping without ending the run; the next claim judges what was in flight.
 */
async function crashingRun(database: TestDatabase, alive: ReadonlySet<string> = new Set()) {
  const workflowId = await seedWorkflow(database, arrows(["in->g1->v1->out"]));
  const run = await database.prisma.run.create({ data: { workflowId, status: "QUEUED", request: {}, snapshot: {} } });
  const bus = new InProcessEventBus();
  const writer = new RunEventWriter(database.raw);
  const nodeTypes = new Map([["in", "input"], ["g1", "generation"], ["v1", "validation"], ["out", "output"]]);
  // Workers are named worker-1, worker-2, … by attempt; those in `alive` are still running when the next one claims.
  const deps = { db: database.prisma, registry: builtInRegistry, logger: pino({ level: "silent" }), maxAttempts: 3, workerAlive: (id: string) => Promise.resolve(alive.has(id)) };
  let seq = 0;
  let claims = 0;
  /** One attempt: claim, judge, then store its events and "crash". */
  const attempt = async (events: (runId: string) => Omit<RunEvent, "seq" | "runId" | "at">[]): Promise<CrashJudgement> => {
    const claim = (await claimRun(database.prisma, run.id, `worker-${(claims += 1)}`)) as RunClaim;
    const judged = await judgeCrashes(deps, run.id, claim, claim.status === "RUNNING" ? await readStoredEvents(database.prisma, run.id, claim.lastSeq) : []);
    if (judged.kind !== "execute") return judged;
    const recorder = new RunEventRecorder(writer, bus, { workflowId, version: null }, nodeTypes, claim.attempt, judged.careful);
    for (const event of events(run.id)) await recorder.record({ ...event, seq: (seq += 1), runId: run.id, at: new Date().toISOString() } as RunEvent);
    await recorder.stored();
    return judged;
  };
  return { runId: run.id, attempt };
}

const started = (nodeId: string, nodeType = "generation") => ({ type: "NODE_STARTED", nodeId, nodeType, invocation: "" }) as const;
const details = () => {
  const at = new Date().toISOString();
  return { inputs: [], renderedPrompt: null, context: [], store: null, rawReply: null, provider: null, model: null, usage: null, retries: 0, startedAt: at, finishedAt: at };
};
const completed = (nodeId: string) => ({ type: "NODE_COMPLETED", nodeId, description: "", output: "x", details: details(), invocation: "" }) as never;

describeEachDatabase("the crash rule on the stored events", (suite) => {
  test("a run whose worker dies with the same node in flight each time fails after WEFT_RUN_MAX_ATTEMPTS such crashes; from its first crash on it records starts first and executes alone", async () => {
    const { runId, attempt } = await crashingRun(suite.db());
    const first = await attempt(() => [{ type: "RUN_STARTED", nodeIds: ["in", "g1", "v1", "out"] } as never, started("in", "input"), completed("in"), started("g1"), completed("g1"), started("v1")]);
    expect(first).toEqual({ kind: "execute", watch: { examined: 0, crashes: 0, suspects: [] }, careful: false, alone: false });
    const v1 = [{ nodeId: "v1", invocation: "" }];
    expect(await attempt(() => [{ type: "RUN_RESUMED", attempt: 2 } as never, started("v1")])).toEqual({ kind: "execute", watch: { examined: 1, crashes: 1, suspects: v1 }, careful: true, alone: true });
    expect(await attempt(() => [{ type: "RUN_RESUMED", attempt: 3 } as never, started("v1")])).toEqual({ kind: "execute", watch: { examined: 2, crashes: 2, suspects: v1 }, careful: true, alone: true });
    expect(await attempt(() => [])).toEqual({ kind: "exhausted", watch: { examined: 3, crashes: 3, suspects: v1 } });
    expect((await suite.db().prisma.run.findUniqueOrThrow({ where: { id: runId } })).crashSuspects).toEqual({ examined: 3, crashes: 3, suspects: v1 });
  });

  test("crashes with other nodes, or nothing, in flight only resume the run", async () => {
    const { attempt } = await crashingRun(suite.db());
    await attempt(() => [{ type: "RUN_STARTED", nodeIds: [] } as never, started("g1")]);
    // g1 in flight at crash 1; at crash 2 it had completed and v1 was in flight: a new count from v1.
    await attempt(() => [{ type: "RUN_RESUMED", attempt: 2 } as never, started("g1"), completed("g1"), started("v1")]);
    const third = await attempt(() => [{ type: "RUN_RESUMED", attempt: 3 } as never]);
    expect(third).toMatchObject({ kind: "execute", watch: { crashes: 1, suspects: [{ nodeId: "v1", invocation: "" }] } });
    // Crash 3 with nothing started: no suspect, and the run goes on as often as its workers die so.
    for (let crash = 4; crash <= 8; crash += 1) {
      expect(await attempt(() => [{ type: "RUN_RESUMED", attempt: crash } as never])).toMatchObject({ kind: "execute", watch: { crashes: 0, suspects: [] }, careful: true, alone: false });
    }
  });

  test("a run taken over from workers still alive (their locks lapsed) with the same node in flight each time is not failed: only deaths count", async () => {
    const { attempt } = await crashingRun(suite.db(), new Set(["worker-2", "worker-3", "worker-4"]));
    await attempt(() => [{ type: "RUN_STARTED", nodeIds: [] } as never, started("v1")]);
    // worker-1 died with v1 in flight; workers 2, 3 and 4 lost the run with v1 in flight while alive.
    for (let taken = 2; taken <= 5; taken += 1) {
      expect(await attempt(() => [{ type: "RUN_RESUMED", attempt: taken } as never, started("v1")])).toMatchObject({
        kind: "execute",
        watch: { crashes: 1, suspects: [{ nodeId: "v1", invocation: "" }] },
      });
    }
    // worker-5 dies with v1 in flight: the second crash.
    expect(await attempt(() => [])).toMatchObject({ kind: "execute", watch: { examined: 5, crashes: 2 } });
  });

  test("with starts stored first, a NODE_STARTED is in the database when the recorder's promise for it settles", async () => {
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const run = await suite.db().prisma.run.create({ data: { workflowId, status: "RUNNING", request: {}, snapshot: {} } });
    const nodeTypes = new Map([["in", "input"], ["g1", "generation"], ["out", "output"]]);
    const recorder = new RunEventRecorder(new RunEventWriter(suite.db().raw), new InProcessEventBus(), { workflowId, version: null }, nodeTypes, null, true);
    await recorder.record({ ...started("g1"), seq: 1, runId: run.id, at: new Date().toISOString() } as RunEvent);
    expect(await suite.db().prisma.runEvent.count({ where: { runId: run.id, type: "NODE_STARTED" } })).toBe(1);
    await recorder.stored();
  });
});
