import type { Client } from "graphql-ws";
import { afterEach, expect, test } from "vitest";
import type { Collected, TestClient } from "../../testing/graphql-client.js";
import { describeEachDatabase } from "../../testing/database.js";
import { startTestApp, seedWorkflow, type TestApp } from "../../testing/app.js";
import { CreateApiKey, RunDetail, RunWorkflow } from "../../testing/operations.js";
import { arrows } from "../../testing/workflows.js";

/**
 * Many subscriptions of one run in one process share the catch-up reads and the results of each event
 * (run-event-replay.ts, graphql/subscription-fanout.ts); each must still get exactly its own stream.
 */
const SHORT = `subscription ($runId: ID!, $afterSeq: Int!) { runEvents(runId: $runId, afterSeq: $afterSeq) { seq type } }`;
const LONG = `subscription ($runId: ID!, $afterSeq: Int!) { runEvents(runId: $runId, afterSeq: $afterSeq) { seq type nodeId output } }`;
const inline = (runId: string) => `subscription { runEvents(runId: "${runId}") { seq nodeId } }`;

type Event = { seq: number; type?: string; nodeId?: string | null; output?: string | null };

describeEachDatabase("runEvents with many subscribers in one process", (suite) => {
  let api: TestApp | undefined;
  const sockets: Client[] = [];
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.dispose()));
    await api?.close();
    api = undefined;
  });

  async function readKey(): Promise<TestClient> {
    const { createApiKey } = await api!.admin.request(CreateApiKey, { input: { name: "reader", scopes: ["read"] } });
    return api!.admin.withKey(createApiKey.key!);
  }

  test("two hundred subscriptions over ten connections, with different selections, scopes and starting points, each get every seq they asked for once, in order", async () => {
    // in ──▶ g1 ──▶ v1 ──▶ … ──▶ v12 ──▶ out   (each model node answers after 10 ms, so subscribers join mid-run)
    api = await startTestApp(suite.db(), { env: { WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE: "0" } });
    const chain = Array.from({ length: 12 }, (_, i) => `v${i + 1}`).join("->");
    const workflowId = await seedWorkflow(suite.db(), arrows([`in->g1->${chain}->out`], { params: { delayMs: 10 } }));
    const { runWorkflow } = await api.admin.request(RunWorkflow, { workflowId, input: { inputs: [{ nodeId: "in", content: "fan out" }] } });
    const runId = runWorkflow.run!.id;

    const reader = await readKey();
    const clients = [...Array.from({ length: 5 }, () => api!.admin), ...Array.from({ length: 5 }, () => reader)];
    const connections = clients.map((client) => client.ws({ lazy: false }));
    sockets.push(...connections);
    const followers: { asked: string; afterSeq: number; stream: Collected<{ runEvents: Event }> }[] = [];
    for (let k = 0; k < 200; k += 1) {
      const client = clients[k % clients.length]!;
      const connection = connections[k % connections.length]!;
      const [query, afterSeq] = k % 4 === 0 ? [SHORT, 0] : k % 4 === 1 ? [LONG, 0] : k % 4 === 2 ? [SHORT, 5] : [inline(runId), 0];
      const variables = query === inline(runId) ? undefined : { runId, afterSeq };
      followers.push({ asked: query === SHORT ? "short" : query === LONG ? "long" : "inline", afterSeq, stream: client.subscribe(connection, query, variables) });
      // Some join before the run's first events, most while it emits them.
      if (k % 50 === 49) await new Promise((resolve) => setTimeout(resolve, 15));
    }
    await Promise.all(followers.map((follower) => follower.stream.ended));

    const { run } = await api.admin.request(RunDetail, { id: runId });
    const stored = run!.events.map((event) => ({ seq: event.seq, type: event.type, nodeId: event.nodeId }));
    expect(stored.at(-1)?.type).toBe("RUN_COMPLETED");
    for (const { asked, afterSeq, stream } of followers) {
      expect(stream.failure).toBeNull();
      expect(stream.errors).toEqual([]);
      const events = stream.items.map((item) => item.runEvents);
      const expected = stored.filter((event) => event.seq > afterSeq);
      expect(events.map((event) => event.seq)).toEqual(expected.map((event) => event.seq));
      // Each gets the fields it asked for, and only those.
      if (asked === "short") expect(events).toEqual(expected.map(({ seq, type }) => ({ seq, type })));
      if (asked === "inline") expect(events).toEqual(expected.map(({ seq, nodeId }) => ({ seq, nodeId })));
      if (asked === "long") {
        expect(events.map(({ seq, type, nodeId }) => ({ seq, type, nodeId }))).toEqual(expected);
        expect(events.at(-1)).toMatchObject({ type: "RUN_COMPLETED", output: "fan out" });
      }
    }
  }, 120_000);
});
