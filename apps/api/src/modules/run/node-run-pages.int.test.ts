import { expect, test } from "vitest";
import { describeEachDatabase } from "../../testing/database.js";
import { runToEnd, seedWorkflow, startTestApp, type TestApp } from "../../testing/app.js";
import { arrows } from "../../testing/workflows.js";

type Row = { nodeId: string; invocation: string; cursor: string };

const PAGE = `query ($id: ID!, $first: Int, $after: String, $nodeId: String, $prefix: String) {
  run(id: $id) { nodeRuns(first: $first, after: $after, nodeId: $nodeId, invocationPrefix: $prefix) { nodeId invocation cursor } }
}`;

async function page(api: TestApp, variables: Record<string, unknown>): Promise<Row[]> {
  return ((await api.admin.request(PAGE, variables)) as { run: { nodeRuns: Row[] } }).run.nodeRuns;
}

/** Every node run of the filter, page after page. */
async function allPages(api: TestApp, variables: Record<string, unknown>, first: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (let after: string | null = null; ; ) {
    const next = await page(api, { ...variables, first, after });
    rows.push(...next);
    if (next.length < first) return rows;
    after = next.at(-1)!.cursor;
  }
}

const key = (row: { nodeId: string; invocation: string }) => `${row.nodeId}@${row.invocation}`;

describeEachDatabase("Run.nodeRuns pages", (suite) => {
  test("a run's node runs come at most 1,000 at a time, in their order, and paging visits each exactly once, filtered by node and invocation prefix", async () => {
    const api = await startTestApp(suite.db());
    try {
      //  in ──▶ g1 ──▶ out
      const runId = await runToEnd(api.admin, await seedWorkflow(suite.db(), arrows(["in->g1->out"])));
      // 2,400 more, as a map over 800 items leaves them: start times shared by many (ties), a third not started.
      const base = Date.parse("2026-11-27T10:00:00.000Z");
      const extra = Array.from({ length: 2_400 }, (_, index) => ({
        runId,
        nodeKey: ["per_q", "perXq", "g1"][index % 3]!,
        invocation: index % 5 === 0 ? `a_b[${index}]` : index % 5 === 1 ? `aXb[${index}]` : `perQuestion[${index}]`,
        nodeType: "generation",
        status: "COMPLETED" as const,
        startedAt: index % 3 === 2 ? null : new Date(base + Math.floor(index / 7) * 10),
      }));
      await suite.db().prisma.nodeRun.createMany({ data: extra });
      const stored = await suite.db().prisma.nodeRun.findMany({
        where: { runId },
        orderBy: [{ startedAt: { sort: "asc", nulls: "last" } }, { nodeKey: "asc" }, { invocation: "asc" }],
        select: { nodeKey: true, invocation: true },
      });
      const expected = stored.map((row) => `${row.nodeKey}@${row.invocation}`);
      expect(expected).toHaveLength(2_403);

      // Without arguments (today's queries): the first 1,000.
      expect((await page(api, { id: runId })).map(key)).toEqual(expected.slice(0, 1_000));
      // Paged by 700: everything once, in order.
      expect((await allPages(api, { id: runId }, 700)).map(key)).toEqual(expected);

      // One node's runs; invocations by prefix, where `_` is a character, not a wildcard.
      const perQ = await allPages(api, { id: runId, nodeId: "per_q" }, 300);
      expect(perQ.map(key)).toEqual(expected.filter((entry) => entry.startsWith("per_q@")));
      const prefixed = await allPages(api, { id: runId, prefix: "a_b[" }, 100);
      expect(prefixed.length).toBe(480);
      expect(prefixed.every((row) => row.invocation.startsWith("a_b["))).toBe(true);
      expect(await page(api, { id: runId, prefix: "a%" })).toEqual([]);

      for (const [variables, argument] of [
        [{ id: runId, first: 1_001 }, "first"],
        [{ id: runId, first: 0 }, "first"],
        [{ id: runId, after: "bm90IGEgY3Vyc29y" }, "after"],
      ] as const) {
        const refused = await api.admin.execute(PAGE, variables);
        expect(refused.errors.map((error) => [error.extensions?.["code"], error.extensions?.["path"]])).toEqual([["BAD_USER_INPUT", [argument]]]);
      }
    } finally {
      await api.close();
    }
  });

  test("ten aliases of a large run's node runs stop at WEFT_MAX_RESPONSE_BYTES instead of answering tens of megabytes", async () => {
    const api = await startTestApp(suite.db(), { env: { WEFT_MAX_RESPONSE_BYTES: "1000000" } });
    try {
      const runId = await runToEnd(api.admin, await seedWorkflow(suite.db(), arrows(["in->g1->out"])));
      const output = "o".repeat(2_000);
      await suite.db().prisma.nodeRun.createMany({
        data: Array.from({ length: 1_500 }, (_, index) => ({ runId, nodeKey: "g1", invocation: `m[${index}]`, nodeType: "generation", output })),
      });
      const aliases = Array.from({ length: 10 }, (_, index) => `a${index}: nodeRuns { output }`).join(" ");
      const result = await api.admin.execute(`query ($id: ID!) { run(id: $id) { ${aliases} } }`, { id: runId });
      expect([result.status, result.errors.map((error) => error.extensions?.["code"]), result.data]).toEqual([400, ["RESPONSE_TOO_LARGE"], null]);
      const one = await api.admin.execute(`query ($id: ID!) { run(id: $id) { nodeRuns(first: 400) { output } } }`, { id: runId });
      expect((one.data as { run: { nodeRuns: unknown[] } }).run.nodeRuns).toHaveLength(400);
    } finally {
      await api.close();
    }
  });
});
