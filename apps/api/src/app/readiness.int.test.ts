import { startWeaviateServer, type WeaviateServer } from "@weft/providers/testing";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openTestDatabase } from "../testing/database.js";
import { startTestApp } from "../testing/app.js";

/**
 * GET /readyz covers what serving needs: the database and the vector store new knowledge bases go to.
 * Its 503 names what failed in that part's own words. /healthz (liveness) stays about the database.
 */

let weaviate: WeaviateServer;
beforeAll(async () => {
  weaviate = await startWeaviateServer();
}, 120_000);
afterAll(async () => {
  await weaviate?.stop();
});

interface Readiness {
  status: string;
  database: { status: string; error?: string };
  vectorStore: { store: string; status: string; error?: string };
}

async function readiness(url: string): Promise<{ code: number; body: Readiness }> {
  const response = await fetch(url.replace("/graphql", "/readyz"));
  return { code: response.status, body: (await response.json()) as Readiness };
}

test("readiness follows Weaviate: 503 with its error while it is down, 200 once it is back", async () => {
  const db = await openTestDatabase("embedded");
  const api = await startTestApp(db, { env: { WEAVIATE_URL: weaviate.url, WEAVIATE_GRPC_PORT: String(weaviate.grpcPort) } });
  try {
    expect(await readiness(api.app.url)).toMatchObject({ code: 200, body: { status: "ready", vectorStore: { store: "weaviate", status: "ok" } } });
    await weaviate.interrupt();
    const down = await readiness(api.app.url);
    expect(down).toMatchObject({ code: 503, body: { status: "unavailable", database: { status: "ok" }, vectorStore: { store: "weaviate", status: "unavailable" } } });
    expect(down.body.vectorStore.error).toContain(`Weaviate at ${weaviate.url} is unreachable`);
    // Liveness is about the process and its database: a vector store outage does not restart it.
    expect((await fetch(api.app.url.replace("/graphql", "/healthz"))).status).toBe(200);
    await weaviate.resume();
    expect((await readiness(api.app.url)).code).toBe(200);
  } finally {
    await api.close();
    await db.close();
  }
}, 180_000);

test("a database that stops answering makes readiness and liveness 503, with the database's own error text", async () => {
  const db = await openTestDatabase("embedded");
  const api = await startTestApp(db);
  try {
    expect((await readiness(api.app.url)).body).toMatchObject({ status: "ready", vectorStore: { store: "pgvector", status: "ok" } });
    await db.close();
    const down = await readiness(api.app.url);
    expect(down).toMatchObject({ code: 503, body: { database: { status: "unavailable" } } });
    expect(down.body.database.error).toMatch(/\w{4,}/);
    const health = await fetch(api.app.url.replace("/graphql", "/healthz"));
    expect(health.status).toBe(503);
    expect(((await health.json()) as Readiness).database.error).toBe(down.body.database.error);
  } finally {
    await api.close();
  }
});

test("a Weaviate gRPC port that nothing listens on is a warning at start, and createKnowledgeBase names that address", async () => {
  const db = await openTestDatabase("embedded");
  const api = await startTestApp(db, { env: { WEAVIATE_URL: weaviate.url, WEAVIATE_GRPC_PORT: "1" }, captureLogs: true });
  try {
    const warning = api.logs.find((line) => line["code"] === "VECTOR_STORE_UNAVAILABLE");
    expect(warning).toMatchObject({ level: 40, store: "weaviate", msg: expect.stringContaining("gRPC port 127.0.0.1:1") });
    const created = await api.admin.execute(`mutation { createKnowledgeBase(input: { name: "kb" }) { knowledgeBase { id } errors { code } } }`);
    expect(created.errors[0]?.extensions?.["code"]).toBe("VECTOR_STORE_UNAVAILABLE");
    expect(created.errors[0]?.message).toContain("gRPC port 127.0.0.1:1");
    const ready = await readiness(api.app.url);
    expect([ready.code, ready.body.vectorStore.error]).toEqual([503, expect.stringContaining("gRPC port 127.0.0.1:1")]);
  } finally {
    await api.close();
    await db.close();
  }
});
