import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { OpenAiMockServer } from "@weft/providers/testing";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";
import { CreateApiKey, RunEvents, RunWorkflow } from "../../testing/operations.js";
import { SecretService } from "./secret.service.js";

/**
 * Secrets through the real API: stored sealed, listed by name only, admin only; a provider whose key in
 * WEFT_PROVIDERS_FILE is {secret.VENDOR_KEY} (a local server speaking OpenAI's protocol) sends the stored
 * value, picks up a replaced one without a restart, and the value is found nowhere after a run that used
 * it — not in the run's events, its node runs, the logs, the export or the database's secret row.
 */

const CreateSecret = graphql(`
  mutation CreateSecret($name: String!, $value: String!) { createSecret(name: $name, value: $value) { secret { name createdAt updatedAt } errors { code path } } }
`);
const DeleteSecret = graphql(`
  mutation DeleteSecret($name: String!) { deleteSecret(name: $name) { name errors { code } } }
`);
const Secrets = graphql(`
  query Secrets { secrets { name } }
`);
const SecretImport = graphql(`
  mutation SecretImport($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }
`);
const SecretRun = graphql(`
  query SecretRun($id: ID!) {
    run(id: $id) { status error { code message } nodeRuns { nodeId status output rawReply renderedPrompt error { code message } } }
  }
`);
const SecretExport = graphql(`
  query SecretExport($id: ID!) { exportWorkflow(id: $id) }
`);

const KEY = "sk-weft-secret-value-7f3a9c1e55d2";
const ROTATED = "sk-weft-rotated-value-0b8e2d4411aa";

let vendor: OpenAiMockServer;
let dir: string;
let file: string;

beforeAll(async () => {
  vendor = await OpenAiMockServer.start();
  dir = await mkdtemp(path.join(os.tmpdir(), "weft-secrets-"));
  file = path.join(dir, "providers.json");
  await writeFile(file, JSON.stringify({ vendor: { kind: "openai", baseUrl: vendor.baseURL, apiKey: "{secret.VENDOR_KEY}", models: [{ id: "small" }] } }));
});

afterAll(async () => {
  await vendor.stop();
  await rm(dir, { recursive: true, force: true });
});

/** q ─► answer (vendor/small) ─► out */
const document = {
  format: "weft.workflow/v2",
  name: "Uses a secret key",
  nodes: [
    { id: "q", type: "input", content: "Name a colour." },
    { id: "answer", type: "llm", provider: "vendor", model: "small", prompt: "{input}" },
    { id: "out", type: "output" },
  ],
  edges: [
    { source: "q", target: "answer" },
    { source: "answer", target: "out" },
  ],
};

describeEachDatabase("secrets", (suite) => {
  let api: TestApp | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  async function runOnce(workflowId: string) {
    const { runWorkflow } = await api!.admin.request(RunWorkflow, { workflowId });
    const ws = api!.admin.ws();
    const collected = api!.admin.subscribe(ws, RunEvents, { runId: runWorkflow.run!.id, afterSeq: 0 });
    await collected.ended;
    await ws.dispose();
    const events = collected.items;
    const run = (await api!.admin.request(SecretRun, { id: runWorkflow.run!.id })).run!;
    return { run, events };
  }

  test("are stored sealed, listed by name only, replaced by name, deleted, and only by admin keys", async () => {
    api = await startTestApp(suite.db());
    const created = await api.admin.request(CreateSecret, { name: "VENDOR_KEY", value: KEY });
    expect(created.createSecret).toMatchObject({ errors: [], secret: { name: "VENDOR_KEY" } });
    const row = await suite.db().prisma.secret.findUniqueOrThrow({ where: { name: "VENDOR_KEY" } });
    expect(row.sealed).not.toContain(KEY);
    expect(row.sealed).toMatch(/^v1\./);
    expect((await api.admin.request(CreateSecret, { name: "VENDOR_KEY", value: ROTATED })).createSecret.errors).toEqual([]);
    expect(await api.app.services.secrets.read("VENDOR_KEY")).toBe(ROTATED);
    expect((await api.admin.request(Secrets, {})).secrets).toEqual([{ name: "VENDOR_KEY" }]);

    expect((await api.admin.request(CreateSecret, { name: "not-a-name", value: "x" })).createSecret.errors).toEqual([{ code: "SECRET_NAME_INVALID", path: ["name"] }]);
    expect((await api.admin.request(CreateSecret, { name: "EMPTY", value: "" })).createSecret.errors).toEqual([{ code: "SECRET_VALUE_INVALID", path: ["value"] }]);
    expect((await api.admin.request(CreateSecret, { name: "HUGE", value: "x".repeat(16 * 1024 + 1) })).createSecret.errors).toEqual([{ code: "SECRET_VALUE_INVALID", path: ["value"] }]);

    const { createApiKey } = await api.admin.request(CreateApiKey, { input: { name: "runner", scopes: ["read", "write", "run"] } });
    const runner = api.admin.withKey(createApiKey.key!);
    expect((await runner.execute(Secrets, {})).errors[0]?.extensions?.code).toBe("FORBIDDEN");
    expect((await runner.execute(CreateSecret, { name: "OTHER", value: "v" })).errors[0]?.extensions?.code).toBe("FORBIDDEN");
    expect((await runner.execute(DeleteSecret, { name: "VENDOR_KEY" })).errors[0]?.extensions?.code).toBe("FORBIDDEN");

    expect((await api.admin.request(DeleteSecret, { name: "VENDOR_KEY" })).deleteSecret).toEqual({ name: "VENDOR_KEY", errors: [] });
    expect((await api.admin.request(DeleteSecret, { name: "VENDOR_KEY" })).deleteSecret.errors).toEqual([{ code: "NOT_FOUND" }]);
    expect((await api.admin.request(Secrets, {})).secrets).toEqual([]);
  });

  test("are refused without a secret key, so none is ever stored in the clear", async () => {
    const service = new SecretService(suite.db().prisma, null, pino({ level: "silent" }));
    const outcome = await service.create("VENDOR_KEY", KEY);
    expect(outcome).toMatchObject({ ok: false, errors: [{ code: "SECRET_KEY_REQUIRED" }] });
    expect(await suite.db().prisma.secret.count()).toBe(0);
  });

  test("a provider's {secret.NAME} key is sent, replaced without a restart, and its value is in no event, node run, log or export", async () => {
    api = await startTestApp(suite.db(), { env: { WEFT_PROVIDERS_FILE: file }, captureLogs: true });
    const { importWorkflow } = await api.admin.request(SecretImport, { document });
    expect(importWorkflow.errors).toEqual([]);
    const workflowId = importWorkflow.workflow!.id;

    // No secret yet: the call fails, naming the secret (not a value).
    const missing = await runOnce(workflowId);
    expect(missing.run.nodeRuns.find((nodeRun) => nodeRun.nodeId === "answer")?.error).toMatchObject({ code: "PROVIDER_AUTH_FAILED", message: expect.stringContaining("VENDOR_KEY") });

    // A server that repeats the key it was sent in its error message (as OpenAI's 401 does).
    await api.admin.request(CreateSecret, { name: "VENDOR_KEY", value: KEY });
    vendor.enqueueChat({ kind: "error", status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}.`, type: "invalid_request_error", param: null, code: "invalid_api_key" } } });
    const refused = await runOnce(workflowId);
    expect(vendor.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(refused.run.nodeRuns.find((nodeRun) => nodeRun.nodeId === "answer")?.error?.message).toContain("Incorrect API key provided: [secret]");

    // Replaced: the next call sends the new value, no restart.
    await api.admin.request(CreateSecret, { name: "VENDOR_KEY", value: ROTATED });
    vendor.enqueueChat({ kind: "reply", text: "Blue." });
    const used = await runOnce(workflowId);
    expect(used.run.status).toBe("COMPLETED");
    expect(vendor.requests.at(-1)?.headers.authorization).toBe(`Bearer ${ROTATED}`);

    const exported = (await api.admin.request(SecretExport, { id: workflowId })).exportWorkflow;
    const storedEvents = await suite.db().prisma.runEvent.findMany({});
    const storedNodeRuns = await suite.db().prisma.nodeRun.findMany({});
    const everything = JSON.stringify([missing, refused, used, exported, storedEvents, storedNodeRuns, api.logs]);
    expect(everything).toContain("Blue.");
    expect(everything).toContain("[secret]");
    for (const value of [KEY, ROTATED]) expect(everything).not.toContain(value);
  });
});
