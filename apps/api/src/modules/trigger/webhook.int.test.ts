import { createHmac } from "node:crypto";
import { afterEach, expect, test } from "vitest";
import { describeEachDatabase } from "../../testing/database.js";
import { seedWorkflow, startTestApp, type TestApp } from "../../testing/app.js";
import { graphql } from "../../testing/gql/index.js";
import { approvalDocument, arrows } from "../../testing/workflows.js";

const CreateWebhook = graphql(`
  mutation CreateWebhook($workflowId: ID!, $input: CreateWebhookTriggerInput!) {
    createWebhookTrigger(workflowId: $workflowId, input: $input) {
      trigger { id kind enabled mode timeoutMs inputs { nodeId from } }
      url
      secret
      errors { code message path field position }
    }
  }
`);

const UpdateTrigger = graphql(`
  mutation UpdateTrigger($id: ID!, $input: UpdateTriggerInput!) {
    updateTrigger(id: $id, input: $input) { trigger { id enabled } errors { code message path } }
  }
`);

const TriggerRuns = graphql(`
  query TriggerRuns($workflowId: ID!, $triggerId: ID!) {
    triggers(workflowId: $workflowId) { id url lastFiredAt firings { status runId key error } }
    runs(triggerId: $triggerId) { totalCount edges { node { id trigger { id kind } } } }
  }
`);

const ImportWorkflow = graphql(`
  mutation WebhookImport($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code } } }
`);

const Publish = graphql(`
  mutation WebhookPublish($id: ID!) { publishWorkflow(id: $id) { version { number } errors { code } } }
`);

const modes = ["ASYNC", "SYNC"] as const;
type Mode = (typeof modes)[number];

describeEachDatabase("webhooks", (suite) => {
  let api: TestApp | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  /** in ──▶ g1 (echo) ──▶ out, with a webhook mapping body.text to `in`. */
  async function webhook(mode: Mode, options: { env?: Record<string, string>; params?: Record<string, unknown>; timeoutMs?: number; from?: string } = {}) {
    api = await startTestApp(suite.db(), { env: options.env });
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"], options.params ? { params: options.params } : {}));
    const { createWebhookTrigger: created } = await api.admin.request(CreateWebhook, {
      workflowId,
      input: { mode, inputs: [{ nodeId: "in", from: options.from ?? "body.text + ' (' + headers['x-source'] + ', ' + query.lang + ')'" }], ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) },
    });
    expect(created.errors).toEqual([]);
    return { workflowId, triggerId: created.trigger!.id, url: created.url!, secret: created.secret! };
  }

  function call(url: string, body: string, headers: Record<string, string> = {}) {
    return fetch(`${url}?lang=ko`, { method: "POST", headers: { "content-type": "application/json", "x-source": "shop", ...headers }, body });
  }

  const sign = (secret: string, body: string) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
  const storedCounts = async () => ({ runs: await suite.db().prisma.run.count(), firings: await suite.db().prisma.triggerFiring.count() });

  test("the secret is shown once, sealed in the database, and the URL points at /hooks/<id>", async () => {
    const hook = await webhook("ASYNC");
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(hook.url).toBe(`${new URL(api!.app.url).origin}/hooks/${hook.triggerId}`);
    const row = await suite.db().prisma.trigger.findUniqueOrThrow({ where: { id: hook.triggerId } });
    expect(row.secret).not.toContain(hook.secret);
    expect(row.secret).toMatch(/^v1\.[0-9a-f]{8}\./);
  });

  test("ASYNC: a signed call answers 202 {runId} and starts a run of the mapped inputs that names its trigger", async () => {
    const hook = await webhook("ASYNC");
    const body = JSON.stringify({ text: "hello" });
    const response = await call(hook.url, body, { "x-weft-signature": sign(hook.secret, body) });
    expect(response.status).toBe(202);
    const { runId } = (await response.json()) as { runId: string };
    const run = await suite.db().prisma.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({ triggerId: hook.triggerId, triggerKind: "WEBHOOK", apiKeyId: null });
    expect((run.request as { inputs: Record<string, string> }).inputs).toEqual({ in: "hello (shop, ko)" });

    const { triggers, runs } = await api!.admin.request(TriggerRuns, { workflowId: hook.workflowId, triggerId: hook.triggerId });
    expect(runs.totalCount).toBe(1);
    expect(runs.edges[0]!.node).toEqual({ id: runId, trigger: { id: hook.triggerId, kind: "WEBHOOK" } });
    expect(triggers[0]!.firings).toEqual([{ status: "STARTED", runId, key: null, error: null }]);
    expect(triggers[0]!.lastFiredAt).not.toBeNull();
  });

  test("a webhook of a published workflow runs its latest version, and of a pinned one that version", async () => {
    const hook = await webhook("ASYNC");
    const publish = async () => (await api!.admin.request(Publish, { id: hook.workflowId })).publishWorkflow.version!.number;
    expect([await publish(), await publish()]).toEqual([1, 2]);
    const fire = async () => {
      const body = JSON.stringify({ text: "v" });
      const response = await call(hook.url, body, { "x-weft-signature": sign(hook.secret, body) });
      const { runId } = (await response.json()) as { runId: string };
      return (await suite.db().prisma.run.findUniqueOrThrow({ where: { id: runId } })).versionNumber;
    };
    expect(await fire()).toBe(2);
    await suite.db().prisma.trigger.update({ where: { id: hook.triggerId }, data: { version: 1 } });
    expect(await fire()).toBe(1);
  });

  test("SYNC: a signed call waits for the run and answers 200 {runId, status, output}", async () => {
    const hook = await webhook("SYNC");
    const body = JSON.stringify({ text: "hello" });
    const response = await call(hook.url, body, { "x-weft-signature": sign(hook.secret, body) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ runId: expect.any(String), status: "COMPLETED", output: "hello (shop, ko)" });
  });

  test("SYNC: a run whose result is a JSON object answers it as JSON, and text that merely looks like a number stays text", async () => {
    const hook = await webhook("SYNC", { from: "body.order" });
    const order = { id: 7, items: ["tea", "cake"], paid: true };
    const body = JSON.stringify({ order });
    const response = await call(hook.url, body, { "x-weft-signature": sign(hook.secret, body) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ runId: expect.any(String), status: "COMPLETED", output: order });

    const numberBody = JSON.stringify({ order: "42" });
    const numberResponse = await call(hook.url, numberBody, { "x-weft-signature": sign(hook.secret, numberBody) });
    expect(await numberResponse.json()).toMatchObject({ status: "COMPLETED", output: "42" });
  });

  test("SYNC: a run still going when timeoutMs passes answers 202 {runId, status}", async () => {
    const hook = await webhook("SYNC", { params: { delayMs: 60_000 }, timeoutMs: 50 });
    const body = JSON.stringify({ text: "slow" });
    const response = await call(hook.url, body, { "x-weft-signature": sign(hook.secret, body) });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ runId: expect.any(String), status: expect.stringMatching(/^(QUEUED|RUNNING)$/) });
  });

  test("SYNC: a run that stops to wait for a person answers 202 {runId, status: WAITING} without waiting for timeoutMs", async () => {
    api = await startTestApp(suite.db());
    const { importWorkflow } = await api.admin.request(ImportWorkflow, { document: approvalDocument("Approve a hook's text") });
    const workflowId = importWorkflow.workflow!.id;
    const { createWebhookTrigger: created } = await api.admin.request(CreateWebhook, { workflowId, input: { mode: "SYNC", timeoutMs: 120_000, inputs: [{ nodeId: "draft", from: "body.text" }] } });
    expect(created.errors).toEqual([]);
    const body = JSON.stringify({ text: "publish me" });
    // A hang here (the run waits for days) fails the test at its own timeout, long before timeoutMs.
    const response = await call(created.url!, body, { "x-weft-signature": sign(created.secret!, body) });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ runId: expect.any(String), status: "WAITING" });
  });

  test.each(modes)("%s: a bad or missing signature is refused with 401 and nothing is stored", async (mode) => {
    const hook = await webhook(mode);
    const body = JSON.stringify({ text: "hello" });
    const cases: Record<string, string>[] = [
      {},
      { "x-weft-signature": sign("whsec_another", body) },
      { "x-weft-signature": sign(hook.secret, `${body} `) },
      { "x-weft-signature": "sha256=abc" },
      { "x-weft-signature": sign(hook.secret, body).replace("sha256=", "sha1=") },
    ];
    for (const headers of cases) {
      const response = await call(hook.url, body, headers);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ errors: [{ extensions: { code: "SIGNATURE_INVALID" } }] });
    }
    expect(await storedCounts()).toEqual({ runs: 0, firings: 0 });
  });

  test.each(modes)("%s: a replayed Idempotency-Key answers with the same run and starts no other", async (mode) => {
    const hook = await webhook(mode);
    const body = JSON.stringify({ text: "once" });
    const headers = { "x-weft-signature": sign(hook.secret, body), "idempotency-key": "order-42" };
    const answers = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await call(hook.url, body, headers);
      answers.push({ status: response.status, body: (await response.json()) as { runId: string } });
    }
    expect(new Set(answers.map((answer) => answer.body.runId)).size).toBe(1);
    expect(answers.map((answer) => answer.status)).toEqual(mode === "ASYNC" ? [202, 202, 202] : [200, 200, 200]);
    expect(await storedCounts()).toEqual({ runs: 1, firings: 1 });
    // Another key is another run.
    const other = await call(hook.url, body, { ...headers, "idempotency-key": "order-43" });
    expect(((await other.json()) as { runId: string }).runId).not.toBe(answers[0]!.body.runId);
    expect((await storedCounts()).runs).toBe(2);
  });

  test.each(modes)("%s: a key older than 24 hours starts a new run", async (mode) => {
    const hook = await webhook(mode);
    const body = JSON.stringify({ text: "again" });
    const headers = { "x-weft-signature": sign(hook.secret, body), "idempotency-key": "daily" };
    const first = (await (await call(hook.url, body, headers)).json()) as { runId: string };
    await suite.db().prisma.triggerFiring.updateMany({ data: { firedAt: new Date(Date.now() - 25 * 3600 * 1000) } });
    const second = (await (await call(hook.url, body, headers)).json()) as { runId: string };
    expect(second.runId).not.toBe(first.runId);
    expect(await storedCounts()).toEqual({ runs: 2, firings: 1 });
  });

  test.each(modes)("%s: a body over WEFT_MAX_BODY_BYTES is refused with 413 and nothing is stored", async (mode) => {
    const hook = await webhook(mode, { env: { WEFT_MAX_BODY_BYTES: "2048" } });
    const body = JSON.stringify({ text: "x".repeat(4096) });
    const response = await call(hook.url, body, { "x-weft-signature": sign(hook.secret, body) });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ errors: [{ extensions: { code: "PAYLOAD_TOO_LARGE", maxBodyBytes: 2048 } }] });
    expect(await storedCounts()).toEqual({ runs: 0, firings: 0 });
  });

  test("a disabled webhook and an unknown one answer 404; deleting the workflow deletes its triggers", async () => {
    const hook = await webhook("ASYNC");
    const body = "{}";
    const disabled = await api!.admin.request(UpdateTrigger, { id: hook.triggerId, input: { enabled: false } });
    expect(disabled.updateTrigger.trigger).toMatchObject({ enabled: false });
    expect((await call(hook.url, body, { "x-weft-signature": sign(hook.secret, body) })).status).toBe(404);
    expect((await call(hook.url.replace(hook.triggerId, "00000000-0000-4000-8000-000000000000"), body, { "x-weft-signature": sign(hook.secret, body) })).status).toBe(404);
    expect(await storedCounts()).toEqual({ runs: 0, firings: 0 });
    await suite.db().prisma.workflow.delete({ where: { id: hook.workflowId } });
    expect(await suite.db().prisma.trigger.count()).toBe(0);
  });

  test("a mapping that does not compile is refused at creation; one that fails on a body answers 422 and starts nothing", async () => {
    api = await startTestApp(suite.db());
    const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
    const refused = await api.admin.request(CreateWebhook, { workflowId, input: { inputs: [{ nodeId: "in", from: "body.text +" }] } });
    expect(refused.createWebhookTrigger.errors).toEqual([
      expect.objectContaining({ code: "EXPRESSION_INVALID", path: ["input", "inputs", "0", "from"], field: "inputs[0].from", position: expect.any(Number) }),
    ]);
    const { createWebhookTrigger: hook } = await api.admin.request(CreateWebhook, { workflowId, input: { inputs: [{ nodeId: "in", from: "body.customer.name" }] } });
    const body = JSON.stringify({ text: "no customer" });
    const response = await call(hook.url!, body, { "x-weft-signature": sign(hook.secret!, body) });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ errors: [{ extensions: { code: "EXPRESSION_FAILED", field: "inputs[0].from" } }] });
    const malformed = await call(hook.url!, "{not json", { "x-weft-signature": sign(hook.secret!, "{not json") });
    expect(malformed.status).toBe(400);
    const deep = "[".repeat(100) + "]".repeat(100);
    const tooDeep = await call(hook.url!, deep, { "x-weft-signature": sign(hook.secret!, deep) });
    expect(tooDeep.status).toBe(422);
    expect(await tooDeep.json()).toMatchObject({ errors: [{ extensions: { code: "VALUE_TOO_DEEP" } }] });
    expect(await storedCounts()).toEqual({ runs: 0, firings: 0 });
  });

  test("a run the workflow refuses is answered 422 and recorded as a FAILED firing", async () => {
    const hook = await webhook("ASYNC");
    await api!.admin.request(UpdateTrigger, { id: hook.triggerId, input: { inputs: [{ nodeId: "nowhere", from: "'x'" }] } });
    const body = "{}";
    const response = await call(hook.url, body, { "x-weft-signature": sign(hook.secret, body) });
    expect(response.status).toBe(422);
    expect(await storedCounts()).toEqual({ runs: 0, firings: 1 });
    const firing = await suite.db().prisma.triggerFiring.findFirstOrThrow();
    expect(firing).toMatchObject({ status: "FAILED", runId: null, error: { code: "VALIDATION_FAILED" } });
  });

  test("the API's request rate limit applies to webhook calls (429 with Retry-After)", async () => {
    const hook = await webhook("ASYNC", { env: { WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE: "2" } });
    const body = "{}";
    const statuses = [];
    for (let k = 0; k < 3; k += 1) statuses.push((await call(hook.url, body, { "x-weft-signature": "sha256=00" })).status);
    expect(statuses).toEqual([401, 401, 429]);
  });

  test("a webhook past its run budget answers 429 with Retry-After, and the refusal is a FAILED firing", async () => {
    const hook = await webhook("ASYNC", { env: { WEFT_RATE_LIMIT_RUNS_PER_MINUTE: "1" } });
    const body = JSON.stringify({ text: "hello" });
    const first = await call(hook.url, body, { "x-weft-signature": sign(hook.secret, body) });
    expect(first.status).toBe(202);
    const refused = await call(hook.url, body, { "x-weft-signature": sign(hook.secret, body) });
    expect(refused.status).toBe(429);
    const seconds = Number(refused.headers.get("retry-after"));
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(await refused.json()).toMatchObject({ errors: [{ extensions: { code: "RATE_LIMITED" } }] });
    expect(await storedCounts()).toEqual({ runs: 1, firings: 2 });
    const failed = await suite.db().prisma.triggerFiring.findFirstOrThrow({ where: { status: "FAILED" } });
    expect(failed).toMatchObject({ runId: null, error: { code: "RATE_LIMITED" } });
  });
});
