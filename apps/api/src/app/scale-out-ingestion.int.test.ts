import { randomBytes } from "node:crypto";
import { startWeaviateServer, type WeaviateServer } from "@weft/providers/testing";
import { startRedisServer, type RedisServer } from "@weft/test-services";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startApiProcess, type ApiProcess } from "../testing/api-process.js";
import { acquirePostgres, openTestDatabase, releasePostgres, type TestDatabase } from "../testing/database.js";
import { GatedEmbeddingsServer } from "../testing/gated-embeddings-server.js";
import { graphql } from "../testing/gql/index.js";
import type { ScaleOutProgressSubscription } from "../testing/gql/graphql.js";

/**
 * Ingestion across processes, end to end: an API process and a worker process (`main.ts --role …`, each
 * its own Node process) on one PostgreSQL, one Redis and one real Weaviate server. Documents added through
 * the API process are indexed by the worker process (an API process has no ingestion worker: it only adds
 * passes to the BullMQ queue), progress reaches the API's subscribers over the Redis bus, and the chunks
 * are searchable through the API. The embedder speaks Mistral's wire protocol from a local server whose
 * gate holds embedding requests, so the test waits on events instead of racing the indexer.
 */
const PROCESS_TEST_MS = 240_000;

const CreateKb = graphql(`
  mutation ScaleOutCreateKb($input: CreateKnowledgeBaseInput!) {
    createKnowledgeBase(input: $input) { knowledgeBase { id } errors { code message } }
  }
`);

const AddDocuments = graphql(`
  mutation ScaleOutAddDocuments($id: ID!, $documents: [DocumentInput!]!, $wait: Boolean) {
    addDocuments(knowledgeBaseId: $id, documents: $documents, waitForIndexing: $wait) {
      documents { id title status chunkCount }
      errors { code message path }
    }
  }
`);

const Search = graphql(`
  query ScaleOutSearch($input: SearchKnowledgeBaseInput!) {
    searchKnowledgeBase(input: $input) { hits { source { documentId title } } }
  }
`);

const Progress = graphql(`
  subscription ScaleOutProgress($id: ID!) {
    ingestionProgress(knowledgeBaseId: $id) { documentId status phase chunksDone chunksTotal }
  }
`);

type Step = ScaleOutProgressSubscription["ingestionProgress"];

/** About 100 chunks of 80 characters: more than one embedding batch. */
const LONG = Array.from({ length: 100 }, (_, k) => `Paragraph ${k} explains how oolong leaves are rolled and roasted.`).join("\n");

describe("ingestion across API and worker processes", () => {
  let redis: RedisServer;
  let weaviate: WeaviateServer;
  let database: TestDatabase;
  let gate: GatedEmbeddingsServer;
  let api: ApiProcess;
  /** The worker process of the moment: the handover test replaces the first one. */
  let worker: ApiProcess;
  let env: Record<string, string>;
  const started: ApiProcess[] = [];
  const adminKey = `weft_test_${randomBytes(24).toString("base64url")}`;

  beforeAll(async () => {
    [redis, weaviate, gate] = await Promise.all([startRedisServer(), startWeaviateServer(), GatedEmbeddingsServer.start(), acquirePostgres()]);
    database = await openTestDatabase("server");
    env = {
      DATABASE_URL: database.location,
      REDIS_URL: redis.url,
      WEAVIATE_URL: weaviate.url,
      WEAVIATE_GRPC_PORT: String(weaviate.grpcPort),
      WEFT_QUEUE_LOCK_MS: "1000",
      ...gate.env,
    };
    [api, worker] = await Promise.all([startApiProcess("api", env, adminKey), startApiProcess("worker", env, adminKey)]);
    started.push(api, worker);
  }, PROCESS_TEST_MS);

  afterAll(async () => {
    await Promise.all(started.map((process) => process.kill("SIGKILL")));
    await database?.close();
    await releasePostgres();
    await Promise.all([redis?.stop(), weaviate?.stop(), gate?.stop()]);
  }, 60_000);

  /**
   * A knowledge base with one long document whose indexing the only worker has begun (its first
   * embedding request held by the closed gate), and a second worker started beside it.
   */
  async function indexingWithReplacement(name: string): Promise<{ kbId: string; documentId: string; replacement: ApiProcess; arrivals: number }> {
    const { createKnowledgeBase } = await api.admin.request(CreateKb, { input: { name, chunkSize: 80, chunkOverlap: 10 } });
    const kbId = createKnowledgeBase.knowledgeBase!.id;
    gate.close();
    const arrivals = gate.arrivals + 1;
    const added = await api.admin.request(AddDocuments, { id: kbId, documents: [{ title: "Oolong", content: LONG }] });
    const documentId = added.addDocuments.documents[0]!.id;
    await gate.arrived(arrivals);
    const replacement = await startApiProcess("worker", env, adminKey);
    started.push(replacement);
    return { kbId, documentId, replacement, arrivals };
  }

  /** Once the replacement's own embedding request arrives, opens the gate and waits for the document to end READY, searchable. */
  async function indexedByReplacement(name: string, documentId: string, arrivals: number): Promise<void> {
    await gate.arrived(arrivals + 1);
    gate.open();
    const ended = async () => database.prisma.document.findUniqueOrThrow({ where: { id: documentId }, select: { status: true, chunkCount: true } });
    let document = await ended();
    for (const deadline = Date.now() + 60_000; document.status !== "READY" && document.status !== "FAILED" && Date.now() < deadline; document = await ended()) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(document.status).toBe("READY");
    expect(document.chunkCount).toBeGreaterThan(64);
    const hits = (await api.admin.request(Search, { input: { name, query: "oolong leaves rolled and roasted", topK: 5 } })).searchKnowledgeBase.hits;
    expect(hits.map((hit) => hit.source.documentId)).toContain(documentId);
  }

  test("a document added through the API process is indexed by the worker process: progress reaches the API's subscriber, waitForIndexing waits across processes, the chunks are searchable through the API", async () => {
    const { createKnowledgeBase } = await api.admin.request(CreateKb, { input: { name: "across", chunkSize: 80, chunkOverlap: 10 } });
    expect(createKnowledgeBase.errors).toEqual([]);
    const kbId = createKnowledgeBase.knowledgeBase!.id;
    const ws = api.admin.ws();
    try {
      const progress = api.admin.subscribe(ws, Progress, { id: kbId });
      const steps = (documentId: string): Step[] => progress.items.map((item) => item.ingestionProgress).filter((step) => step.documentId === documentId);
      gate.close();
      const added = await api.admin.request(AddDocuments, { id: kbId, documents: [{ title: "Oolong", content: LONG }] });
      expect(added.addDocuments.errors).toEqual([]);
      expect(added.addDocuments.documents.map((document) => document.status)).toEqual(["PENDING"]);
      const oolong = added.addDocuments.documents[0]!.id;

      // The worker has started the pass (its first embedding request is held) before anything is answered.
      await gate.arrived(1);
      await progress.until(() => steps(oolong).some((step) => step.status === "INDEXING"));
      gate.open();
      await progress.until(() => steps(oolong).some((step) => step.status === "READY" || step.status === "FAILED"));
      const last = steps(oolong).at(-1)!;
      expect(last).toMatchObject({ status: "READY", phase: "ready" });
      expect(last.chunksDone).toBeGreaterThan(64);

      const waited = await api.admin.request(AddDocuments, { id: kbId, documents: [{ title: "Sencha", content: "Sencha is steamed green tea." }], wait: true });
      expect(waited.addDocuments.documents.map((document) => document.status)).toEqual(["READY"]);
      const sencha = waited.addDocuments.documents[0]!.id;

      const search = async (query: string) =>
        (await api.admin.request(Search, { input: { name: "across", query, topK: 5 } })).searchKnowledgeBase.hits.map((hit) => hit.source.documentId);
      expect(await search("oolong leaves rolled and roasted")).toContain(oolong);
      expect(await search("Sencha steamed green tea")).toContain(sencha);
      const rows = await database.prisma.document.findMany({ where: { knowledgeBaseId: kbId }, select: { status: true, chunkCount: true } });
      expect(rows.every((row) => row.status === "READY" && row.chunkCount > 0)).toBe(true);
      const passes = (process: ApiProcess) => process.logs.filter((line) => line["msg"] === "ingestion pass done" && line["knowledgeBaseId"] === kbId).length;
      expect(passes(worker)).toBeGreaterThanOrEqual(2);
      expect(passes(api)).toBe(0);
    } finally {
      await ws.dispose();
    }
  }, PROCESS_TEST_MS);

  test("a worker stopped by SIGTERM while indexing hands its pass over: another worker indexes the document at once", async () => {
    const { kbId, documentId, replacement, arrivals } = await indexingWithReplacement("handover");
    await worker.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
    expect(worker.logs.some((line) => line["msg"] === "handing the ingestion pass over to another worker" && line["knowledgeBaseId"] === kbId)).toBe(true);
    await indexedByReplacement("handover", documentId, arrivals);
    expect(replacement.logs.some((line) => line["msg"] === "ingestion pass done" && line["knowledgeBaseId"] === kbId)).toBe(true);
    // Taken from the queue at once, not found later by the reconciler as a document left PENDING.
    expect(replacement.logs.some((line) => String(line["msg"]).startsWith("re-enqueued knowledge bases"))).toBe(false);
    worker = replacement;
  }, PROCESS_TEST_MS);

  test("a worker killed with SIGKILL while indexing: its pass comes back to the queue as stalled, another worker takes the document over and indexes it", async () => {
    const { kbId, documentId, replacement, arrivals } = await indexingWithReplacement("killed");
    await worker.kill("SIGKILL");
    expect((await database.prisma.document.findUniqueOrThrow({ where: { id: documentId } })).status).toBe("INDEXING");
    // No handover this time: the job's lock lapses (WEFT_QUEUE_LOCK_MS), the replacement's stalled check
    // puts it back in the queue, and its pass takes the document over.
    await indexedByReplacement("killed", documentId, arrivals);
    const tookOver = (line: Record<string, unknown>) => line["msg"] === "took over documents an interrupted pass left indexing" && line["knowledgeBaseId"] === kbId;
    expect(replacement.logs.some(tookOver)).toBe(true);
  }, PROCESS_TEST_MS);
});
