import type { Client } from "graphql-ws";
import { afterEach, expect, test } from "vitest";
import { describeEachDatabase } from "../testing/database.js";
import { seedWorkflow, startTestApp, type TestApp } from "../testing/app.js";
import type { TestClient } from "../testing/graphql-client.js";
import { CreateApiKey, RevokeApiKey, RunEvents, RunStatusChanged, RunWorkflow } from "../testing/operations.js";
import { arrows } from "../testing/workflows.js";

/** How the server closed a graphql-ws connection. */
function closeOf(ws: Client): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => ws.on("closed", (event) => resolve({ code: (event as CloseEvent).code, reason: (event as CloseEvent).reason })));
}

describeEachDatabase("revoking a key ends its open subscriptions", (suite) => {
  let api: TestApp | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  async function reader(): Promise<{ client: TestClient; id: string }> {
    const { createApiKey } = await api!.admin.request(CreateApiKey, { input: { name: "dashboard", scopes: ["read"] } });
    return { client: api!.admin.withKey(createApiKey.key!), id: createApiKey.apiKey!.id };
  }

  test("revokeApiKey closes the key's WebSockets at once with 4403, and they receive nothing more", async () => {
    // in ──▶ g1 ──▶ v1 ──▶ v2 ──▶ out  (each model node takes 150 ms: the run outlives the revocation)
    api = await startTestApp(suite.db());
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->v1->v2->out"], { params: { delayMs: 150 } }));
    const key = await reader();
    const { runWorkflow } = await api.admin.request(RunWorkflow, { workflowId });
    const runId = runWorkflow.run!.id;

    const watched = api.admin.ws();
    const everything = api.admin.subscribe(watched, RunEvents, { runId, afterSeq: 0 });
    const events = key.client.ws();
    const eventsClosed = closeOf(events);
    const followed = key.client.subscribe(events, RunEvents, { runId, afterSeq: 0 });
    const statuses = key.client.ws();
    const statusesClosed = closeOf(statuses);
    key.client.subscribe(statuses, RunStatusChanged, {});

    await followed.until((items) => items.length >= 1);
    await api.admin.request(RevokeApiKey, { id: key.id });
    expect(await eventsClosed).toMatchObject({ code: 4403, reason: "API key revoked" });
    expect(await statusesClosed).toMatchObject({ code: 4403, reason: "API key revoked" });
    await followed.ended;
    const seenByRevoked = followed.items.length;

    await everything.ended;
    await Promise.all([watched.dispose(), events.dispose(), statuses.dispose()]);
    // The admin's socket was untouched and saw the run to its end; the revoked key's stopped early.
    expect(everything.items.at(-1)?.runEvents.type).toBe("RUN_COMPLETED");
    expect(followed.items.length).toBe(seenByRevoked);
    expect(seenByRevoked).toBeLessThan(everything.items.length);
  });

  test("a revocation made by another process (the revoke-key command) closes the key's sockets at the next re-check", async () => {
    api = await startTestApp(suite.db(), { env: { WEFT_WS_KEY_RECHECK_SECONDS: "1" } });
    const key = await reader();
    const ws = key.client.ws({ lazy: false });
    const connected = new Promise((resolve) => ws.on("connected", resolve));
    const closed = closeOf(ws);
    key.client.subscribe(ws, RunStatusChanged, {});
    await connected;
    // Written straight to the database, as the command does from its own process: no message on this server's bus.
    await suite.db().prisma.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
    expect(await closed).toMatchObject({ code: 4403, reason: "API key revoked" });
    await ws.dispose();
  });
});
