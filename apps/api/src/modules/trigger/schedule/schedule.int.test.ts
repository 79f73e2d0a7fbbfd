import { randomUUID } from "node:crypto";
import { afterEach, expect, test } from "vitest";
import { describeEachDatabase } from "../../../testing/database.js";
import { seedWorkflow, startTestApp, type TestApp } from "../../../testing/app.js";
import { graphql } from "../../../testing/gql/index.js";
import { arrows } from "../../../testing/workflows.js";
import { claimFiring } from "../trigger-firing.store.js";

const CreateSchedule = graphql(`
  mutation CreateSchedule($workflowId: ID!, $input: CreateScheduleTriggerInput!) {
    createScheduleTrigger(workflowId: $workflowId, input: $input) {
      trigger { id workflowId kind cron timezone overlap catchUp nextTickAt enabled }
      errors { code message path }
    }
  }
`);

const DisableTrigger = graphql(`
  mutation DisableTrigger($id: ID!) {
    updateTrigger(id: $id, input: { enabled: false }) { trigger { id enabled nextTickAt } errors { code } }
  }
`);

const EVERY_2_S = "*/2 * * * * *";

describeEachDatabase(
  "schedules in one process",
  (suite) => {
    let api: TestApp | undefined;
    afterEach(async () => {
      await api?.close();
      api = undefined;
    });

    async function schedule(input: { cron: string; overlap?: "SKIP" | "ALLOW"; catchUp?: "NONE" | "LAST"; timezone?: string }, params?: Record<string, unknown>) {
      api = await startTestApp(suite.db());
      const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"], params ? { params } : {}));
      const { createScheduleTrigger } = await api.admin.request(CreateSchedule, { workflowId, input: { ...input, inputs: [{ nodeId: "in", from: "'tick at ' + body.tick" }] } });
      expect(createScheduleTrigger.errors).toEqual([]);
      return { workflowId, trigger: createScheduleTrigger.trigger! };
    }

    // By tick: ticks handled together (one late, the next on time) share their firedAt.
    const firings = (triggerId: string) => suite.db().prisma.triggerFiring.findMany({ where: { triggerId }, orderBy: { key: "asc" } });
    /** `count` firings whose outcome is recorded (a claimed tick is STARTED without a run until its run is stored). */
    async function waitForFirings(triggerId: string, count: number) {
      for (;;) {
        const rows = await firings(triggerId);
        if (rows.filter((row) => row.status !== "STARTED" || row.runId !== null).length >= count) return rows;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    test("a schedule every 2 s fires exactly once per tick, each tick a run with the tick in its input", async () => {
      const { trigger } = await schedule({ cron: EVERY_2_S, overlap: "ALLOW" });
      expect(trigger).toMatchObject({ kind: "SCHEDULE", cron: EVERY_2_S, timezone: "UTC", overlap: "ALLOW", catchUp: "NONE", enabled: true });
      expect(new Date(trigger.nextTickAt!).getUTCSeconds() % 2).toBe(0);
      await waitForFirings(trigger.id, 3);
      await api!.close();
      api = undefined;
      const rows = await firings(trigger.id);
      const ticks = rows.map((row) => Date.parse(row.key!.replace("tick:", "")));
      expect(new Set(ticks).size).toBe(ticks.length);
      ticks.slice(1).forEach((tick, index) => expect(tick - ticks[index]!).toBe(2000));
      expect(rows.every((row) => row.status === "STARTED" && row.runId !== null)).toBe(true);
      const runs = await suite.db().prisma.run.findMany({ where: { triggerId: trigger.id } });
      expect(runs).toHaveLength(rows.length);
      const inputs = runs.map((run) => (run.request as { inputs: Record<string, string> }).inputs.in).sort();
      expect(inputs).toEqual(rows.map((row) => `tick at ${row.key!.replace("tick:", "")}`).sort());
    });

    test("overlap SKIP: a tick while the schedule's run is still active starts none and says why", async () => {
      const { trigger } = await schedule({ cron: EVERY_2_S, overlap: "SKIP" }, { delayMs: 60_000 });
      const rows = await waitForFirings(trigger.id, 2);
      expect(rows[0]).toMatchObject({ status: "STARTED" });
      expect(rows[1]).toMatchObject({ status: "SKIPPED", runId: null, error: { code: "OVERLAP_SKIPPED" } });
      expect(await suite.db().prisma.run.count({ where: { triggerId: trigger.id } })).toBe(1);
    });

    test.each([
      ["LAST", 1],
      ["NONE", 0],
    ] as const)("catchUp %s after downtime fires %i run for the missed ticks, once across restarts", async (catchUp, expectedRuns) => {
      // Every 1 January: no tick comes due during the test, so every firing is a catch-up.
      const { trigger } = await schedule({ cron: "0 0 1 1 *", catchUp, timezone: "Asia/Seoul" });
      await api!.close();
      // The server was down for two years: every tick since then was missed.
      await suite.db().prisma.trigger.update({ where: { id: trigger.id }, data: { lastTickAt: new Date(Date.now() - 2 * 366 * 24 * 3600 * 1000) } });
      api = await startTestApp(suite.db());
      await api.close();
      api = await startTestApp(suite.db());
      const rows = await firings(trigger.id);
      const year = new Date().getUTCFullYear();
      // Midnight of 1 January in Seoul is 15:00 UTC on 31 December.
      const latest = Date.parse(`${year}-12-31T15:00:00Z`) <= Date.now() ? `${year}-12-31T15:00:00.000Z` : `${year - 1}-12-31T15:00:00.000Z`;
      // One firing for the latest missed tick: a run (LAST), or the record that it was missed (NONE).
      expect(rows).toEqual([
        expect.objectContaining(expectedRuns === 1 ? { key: `tick:${latest}`, status: "STARTED" } : { key: `tick:${latest}`, status: "SKIPPED", error: expect.objectContaining({ code: "TICK_MISSED" }) }),
      ]);
      expect(await suite.db().prisma.run.count({ where: { triggerId: trigger.id } })).toBe(expectedRuns);
    });

    /** The latest 1 January midnight in Seoul (15:00 UTC on 31 December) that has passed. */
    function latestSeoulNewYear(): string {
      const year = new Date().getUTCFullYear();
      return Date.parse(`${year}-12-31T15:00:00Z`) <= Date.now() ? `${year}-12-31T15:00:00.000Z` : `${year - 1}-12-31T15:00:00.000Z`;
    }

    test.each([
      ["died a minute ago", 1, 60_000],
      ["may still be storing its run (claimed just now)", 0, 0],
    ] as const)("a tick claimed by a process that %s is fired at the next start: %i run", async (_, expectedRuns, claimedAgoMs) => {
      const { trigger } = await schedule({ cron: "0 0 1 1 *", catchUp: "LAST", timezone: "Asia/Seoul" });
      await api!.close();
      // A process claimed the latest tick and died before storing its run; the schedule was then down.
      const key = `tick:${latestSeoulNewYear()}`;
      await suite.db().prisma.triggerFiring.create({ data: { id: randomUUID(), triggerId: trigger.id, key, status: "STARTED", firedAt: new Date(Date.now() - claimedAgoMs) } });
      await suite.db().prisma.trigger.update({ where: { id: trigger.id }, data: { lastTickAt: new Date(Date.now() - 2 * 366 * 24 * 3600 * 1000) } });
      api = await startTestApp(suite.db());
      const runs = await suite.db().prisma.run.findMany({ where: { triggerId: trigger.id } });
      expect(runs).toHaveLength(expectedRuns);
      const rows = await firings(trigger.id);
      expect(rows).toEqual([expect.objectContaining({ key, status: "STARTED", runId: runs[0]?.id ?? null })]);
    });

    test("a claimant overtaken after the lease stores no run; the process that took the claim over stores one, linked in the same statement", async () => {
      const { trigger } = await schedule({ cron: "0 0 1 1 *" });
      const db = suite.db().prisma;
      const key = "tick:2020-01-01T00:00:00.000Z";
      const slow = await claimFiring(db, trigger.id, key, false, new Date(Date.now() - 60_000));
      const taker = await claimFiring(db, trigger.id, key, false);
      expect(slow.claimed && taker.claimed).toBe(true);
      const runs = api!.app.services.runs;
      const start = (firingId: string) => runs.startForTrigger({ id: trigger.id, kind: "SCHEDULE", workflowId: trigger.workflowId, version: null }, { in: "tick" }, { firingId });
      const late = await start((slow as { firingId: string }).firingId);
      expect(late.ok ? [] : late.errors.map((error) => error.code)).toEqual(["CONFLICT"]);
      expect(await db.run.count({ where: { triggerId: trigger.id } })).toBe(0);
      const started = await start((taker as { firingId: string }).firingId);
      expect(started.ok).toBe(true);
      const firing = await db.triggerFiring.findUniqueOrThrow({ where: { triggerId_key: { triggerId: trigger.id, key } } });
      expect(firing).toMatchObject({ status: "STARTED", runId: started.ok ? started.value.id : "none" });
      expect(await start((taker as { firingId: string }).firingId)).toMatchObject({ ok: false });
      expect(await db.run.count({ where: { triggerId: trigger.id } })).toBe(1);
    });

    test("a cron or time zone that cannot be read is refused; a disabled schedule has no next tick", async () => {
      api = await startTestApp(suite.db());
      const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
      const refused = async (input: { cron: string; timezone?: string }) => (await api!.admin.request(CreateSchedule, { workflowId, input })).createScheduleTrigger.errors.map((error) => error.code);
      expect(await refused({ cron: "61 * * * *" })).toEqual(["CRON_INVALID"]);
      expect(await refused({ cron: "* * * * * * *" })).toEqual(["CRON_INVALID"]);
      expect(await refused({ cron: "0 9 * * *", timezone: "Mars/Olympus" })).toEqual(["TIMEZONE_INVALID"]);
      const { createScheduleTrigger } = await api.admin.request(CreateSchedule, { workflowId, input: { cron: "0 9 * * 1-5", timezone: "Asia/Seoul" } });
      expect(new Date(createScheduleTrigger.trigger!.nextTickAt!).getUTCHours()).toBe(0);
      const { updateTrigger } = await api.admin.request(DisableTrigger, { id: createScheduleTrigger.trigger!.id });
      expect(updateTrigger.trigger).toMatchObject({ enabled: false, nextTickAt: null });
    });
  },
  { modes: ["embedded"] },
);
