import { startWeaviateServer, type WeaviateServer } from "@weft/providers/testing";
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { GatedEmbeddingsServer } from "../../testing/gated-embeddings-server.js";
import { graphql } from "../../testing/gql/index.js";
import type { IngestProgressSubscription } from "../../testing/gql/graphql.js";

/**
 * Asynchronous ingestion through the real server: addDocuments stores PENDING documents and answers,
 * a background pass indexes them, and `ingestionProgress` reports each step (replaying unfinished
 * documents to late subscribers). The embedder is Mistral's wire protocol served by a local server
 * whose gate holds embedding requests, so every test waits on events instead of racing the indexer.
 */

const CreateKb = graphql(`
  mutation IngestCreateKb($input: CreateKnowledgeBaseInput!) {
    createKnowledgeBase(input: $input) { knowledgeBase { id } errors { code message } }
  }
`);

const AddDocuments = graphql(`
  mutation IngestAddDocuments($id: ID!, $documents: [DocumentInput!]!, $wait: Boolean) {
    addDocuments(knowledgeBaseId: $id, documents: $documents, waitForIndexing: $wait) {
      documents { id title status chunkCount error }
      errors { code message path }
    }
  }
`);

const Documents = graphql(`
  query IngestDocuments($id: ID!) {
    knowledgeBase(id: $id) { chunkCount documents { edges { node { id title status chunkCount error } } } }
  }
`);

const Search = graphql(`
  query IngestSearch($input: SearchKnowledgeBaseInput!) {
    searchKnowledgeBase(input: $input) { hits { source { documentId title } } }
  }
`);

const RemoveDocument = graphql(`
  mutation IngestRemoveDocument($id: ID!) { removeDocument(documentId: $id) { removedDocumentId errors { code } } }
`);

const DeleteKb = graphql(`
  mutation IngestDeleteKb($id: ID!) { deleteKnowledgeBase(id: $id) { deletedKnowledgeBaseId errors { code } } }
`);

const Reindex = graphql(`
  mutation IngestReindex($id: ID!) { reindexKnowledgeBase(id: $id) { documents { id title status chunkCount } errors { code } } }
`);

const Progress = graphql(`
  subscription IngestProgress($id: ID!) {
    ingestionProgress(knowledgeBaseId: $id) { documentId title status error phase chunksDone chunksTotal }
  }
`);

type Step = IngestProgressSubscription["ingestionProgress"];

/** About 100 chunks of 80 characters: more than one embedding batch (64 chunks, 32 per Mistral call). */
const LONG = Array.from({ length: 100 }, (_, k) => `Paragraph ${k} explains how oolong leaves are rolled and roasted.`).join("\n");

let weaviate: WeaviateServer | undefined;
afterAll(async () => {
  await weaviate?.stop();
});

describeEachDatabase("asynchronous knowledge-base ingestion", (suite) => {
  let api: TestApp | undefined;
  let gate: GatedEmbeddingsServer;
  beforeAll(async () => {
    if (suite.mode === "server") weaviate ??= await startWeaviateServer();
  }, 120_000);
  beforeEach(async () => {
    gate = await GatedEmbeddingsServer.start();
  });
  afterEach(async () => {
    await api?.close();
    api = undefined;
    await gate.stop();
  });
  const start = async () => {
    const store = weaviate && suite.mode === "server" ? { WEAVIATE_URL: weaviate.url, WEAVIATE_GRPC_PORT: String(weaviate.grpcPort) } : {};
    api = await startTestApp(suite.db(), { env: { ...store, ...gate.env } });
    return api;
  };
  const createKb = async (name: string) => {
    const { createKnowledgeBase } = await api!.admin.request(CreateKb, { input: { name, chunkSize: 80, chunkOverlap: 10 } });
    expect(createKnowledgeBase.errors).toEqual([]);
    return createKnowledgeBase.knowledgeBase!.id;
  };
  const subscribe = (kbId: string) => {
    const ws = api!.admin.ws();
    const collected = api!.admin.subscribe(ws, Progress, { id: kbId });
    const steps = (): Step[] => collected.items.map((item) => item.ingestionProgress);
    const until = (predicate: (steps: Step[]) => boolean) => collected.until(() => predicate(steps()));
    const stop = async () => {
      collected.dispose();
      await ws.dispose();
    };
    return { steps, until, stop };
  };
  const settled = (id: string) => (steps: { documentId: string; status?: string | null }[]) =>
    steps.some((step) => step.documentId === id && (step.status === "READY" || step.status === "FAILED"));

  test("addDocuments answers with PENDING documents at once; the subscription reports INDEXING → READY with chunk progress", async () => {
    await start();
    const kbId = await createKb("async");
    gate.close();
    const { addDocuments } = await api!.admin.request(AddDocuments, { id: kbId, documents: [{ title: "Oolong", content: LONG }] });
    expect(addDocuments.errors).toEqual([]);
    expect(addDocuments.documents.map((document) => [document.title, document.status, document.chunkCount])).toEqual([["Oolong", "PENDING", 0]]);
    const id = addDocuments.documents[0]!.id;

    const progress = subscribe(kbId);
    // The document cannot finish while the gate is closed, so the replay is the first thing to arrive.
    await progress.until((steps) => steps.length > 0);
    gate.open();
    await progress.until(settled(id));
    await progress.stop();

    const mine = progress.steps().filter((step) => step.documentId === id);
    expect(["PENDING", "INDEXING"]).toContain(mine[0]!.status);
    expect(mine.map((step) => step.status)).toContain("INDEXING");
    expect(mine.at(-1)).toMatchObject({ status: "READY", phase: "ready" });
    const embedding = mine.filter((step) => step.phase === "embedding");
    expect(embedding.map((step) => step.chunksDone)).toEqual([...embedding.map((step) => step.chunksDone)].sort((a, b) => a - b));
    const { knowledgeBase } = await api!.admin.request(Documents, { id: kbId });
    const stored = knowledgeBase!.documents.edges[0]!.node;
    expect(stored).toMatchObject({ id, status: "READY" });
    expect(stored.chunkCount).toBeGreaterThan(64);
    expect(mine.at(-1)).toMatchObject({ chunksDone: stored.chunkCount, chunksTotal: stored.chunkCount });
    expect(embedding.every((step) => step.chunksTotal === stored.chunkCount)).toBe(true);
  });

  test("a late subscriber first gets the current state of the unfinished documents, then the live steps", async () => {
    await start();
    const kbId = await createKb("late");
    gate.close();
    const firstEmbed = gate.arrived(gate.arrivals + 1);
    const { addDocuments } = await api!.admin.request(AddDocuments, {
      id: kbId,
      documents: [{ title: "First", content: "Green tea is steamed soon after picking." }, { title: "Second", content: "Black tea is fully oxidised." }],
    });
    const [first, second] = addDocuments.documents;
    // The first document's embedding request is held: it is INDEXING, the second still PENDING.
    await firstEmbed;

    const progress = subscribe(kbId);
    await progress.until((steps) => steps.length >= 2);
    expect(progress.steps().slice(0, 2)).toEqual([
      expect.objectContaining({ documentId: first!.id, title: "First", status: "INDEXING", phase: "embedding" }),
      expect.objectContaining({ documentId: second!.id, title: "Second", status: "PENDING", phase: "queued" }),
    ]);
    gate.open();
    await progress.until((steps) => settled(first!.id)(steps) && settled(second!.id)(steps));
    await progress.stop();
    expect(progress.steps().filter((step) => step.status === "READY").map((step) => step.title)).toEqual(["First", "Second"]);
  });

  test("a failing embedder leaves the document FAILED with its error and none of its chunks searchable", async () => {
    await start();
    const kbId = await createKb("failing");
    // The first 64 chunks (two Mistral calls) are embedded and stored; the third call fails.
    gate.failFrom(gate.arrivals + 3);
    const { addDocuments } = await api!.admin.request(AddDocuments, { id: kbId, documents: [{ title: "Oolong", content: LONG }], wait: true });
    expect(addDocuments.documents).toEqual([expect.objectContaining({ title: "Oolong", status: "FAILED", chunkCount: 0, error: expect.stringContaining("PROVIDER") })]);
    expect(addDocuments.errors.map((error) => [error.code, error.path])).toEqual([["INGESTION_FAILED", ["documents", "0"]]]);

    gate.failFrom(Number.POSITIVE_INFINITY);
    const { searchKnowledgeBase } = await api!.admin.request(Search, { input: { name: "failing", query: "oolong leaves rolled", topK: 50 } });
    expect(searchKnowledgeBase.hits).toEqual([]);
    const { knowledgeBase } = await api!.admin.request(Documents, { id: kbId });
    expect(knowledgeBase!.chunkCount).toBe(0);
  });

  test("removing a document while it is indexed cancels its job and leaves nothing; the queue goes on", async () => {
    await start();
    const kbId = await createKb("removal");
    gate.close();
    const held = gate.arrived(gate.arrivals + 1);
    const { addDocuments } = await api!.admin.request(AddDocuments, { id: kbId, documents: [{ title: "Oolong", content: LONG }] });
    const id = addDocuments.documents[0]!.id;
    await held;
    const progress = subscribe(kbId);
    await progress.until((steps) => steps.length > 0);

    expect((await api!.admin.request(RemoveDocument, { id })).removeDocument).toEqual({ removedDocumentId: id, errors: [] });
    await progress.until((steps) => steps.some((step) => step.documentId === id && step.phase === "removed"));
    await progress.stop();
    expect(progress.steps().at(-1)).toMatchObject({ documentId: id, status: null, phase: "removed" });
    expect(await suite.db().prisma.document.count({ where: { id } })).toBe(0);

    gate.open();
    const next = await api!.admin.request(AddDocuments, { id: kbId, documents: [{ title: "Green", content: "Green tea is pan-fired." }], wait: true });
    expect(next.addDocuments.documents.map((document) => document.status)).toEqual(["READY"]);
    const { searchKnowledgeBase } = await api!.admin.request(Search, { input: { name: "removal", query: "oolong leaves rolled", topK: 50 } });
    expect(searchKnowledgeBase.hits.map((hit) => hit.source.title)).toEqual(["Green"]);
  });

  test("deleting a knowledge base while a document is indexed cancels the job and deletes everything", async () => {
    await start();
    const kbId = await createKb("doomed");
    gate.close();
    const held = gate.arrived(gate.arrivals + 1);
    await api!.admin.request(AddDocuments, { id: kbId, documents: [{ title: "Oolong", content: LONG }, { title: "Next", content: "Queued behind it." }] });
    await held;
    expect((await api!.admin.request(DeleteKb, { id: kbId })).deleteKnowledgeBase).toEqual({ deletedKnowledgeBaseId: kbId, errors: [] });
    expect(await suite.db().prisma.document.count({ where: { knowledgeBaseId: kbId } })).toBe(0);
    expect(await suite.db().prisma.knowledgeBase.count({ where: { id: kbId } })).toBe(0);
  });

  test("reindexKnowledgeBase answers with every document PENDING and indexes them again in the background", async () => {
    await start();
    const kbId = await createKb("again");
    const { addDocuments } = await api!.admin.request(AddDocuments, { id: kbId, documents: [{ title: "Oolong", content: LONG }], wait: true });
    const before = addDocuments.documents[0]!;
    expect(before.status).toBe("READY");
    gate.close();
    const { reindexKnowledgeBase } = await api!.admin.request(Reindex, { id: kbId });
    expect(reindexKnowledgeBase.errors).toEqual([]);
    expect(reindexKnowledgeBase.documents).toEqual([{ id: before.id, title: "Oolong", status: "PENDING", chunkCount: 0 }]);
    const progress = subscribe(kbId);
    await progress.until((steps) => steps.length > 0);
    gate.open();
    await progress.until(settled(before.id));
    await progress.stop();
    expect(progress.steps().at(-1)).toMatchObject({ status: "READY", chunksDone: before.chunkCount });
    const { knowledgeBase } = await api!.admin.request(Documents, { id: kbId });
    expect(knowledgeBase!.chunkCount).toBe(before.chunkCount);
  });

  test("a large load is indexed in the background and searchable afterwards (pgvector builds its index once)", async () => {
    await start();
    const kbId = await createKb("large");
    const documents = [1, 2, 3].map((part) => ({ title: `Part ${part}`, content: LONG.replaceAll("Paragraph", `Part ${part} paragraph`) }));
    const { addDocuments } = await api!.admin.request(AddDocuments, { id: kbId, documents, wait: true });
    expect(addDocuments.documents.map((document) => document.status)).toEqual(["READY", "READY", "READY"]);
    const chunks = addDocuments.documents.reduce((sum, document) => sum + document.chunkCount, 0);
    expect(chunks).toBeGreaterThanOrEqual(256);
    const { searchKnowledgeBase } = await api!.admin.request(Search, { input: { name: "large", query: "Part 2 paragraph 7 oolong", topK: 3 } });
    expect(searchKnowledgeBase.hits.length).toBe(3);
    if (suite.mode === "embedded") {
      const indexes = await suite.db().prisma.$queryRaw<{ indexname: string }[]>`SELECT indexname FROM pg_indexes WHERE indexname LIKE '%_hnsw'`;
      expect(indexes.length).toBeGreaterThan(0);
    }
  });

  test("documents left INDEXING or PENDING by a crash are re-queued at start and end READY", async () => {
    await start();
    const kbId = await createKb("recovered");
    const { addDocuments } = await api!.admin.request(AddDocuments, {
      id: kbId,
      documents: [{ title: "Interrupted", content: LONG }, { title: "Waiting", content: "Black tea is fully oxidised." }],
      wait: true,
    });
    expect(addDocuments.documents.map((document) => document.status)).toEqual(["READY", "READY"]);
    await api!.close();
    // What a crash mid-ingestion leaves: one document INDEXING (with some chunks stored), one PENDING.
    const [interrupted, waiting] = addDocuments.documents;
    await suite.db().prisma.document.update({ where: { id: interrupted!.id }, data: { status: "INDEXING", chunkCount: 0 } });
    await suite.db().prisma.document.update({ where: { id: waiting!.id }, data: { status: "PENDING", chunkCount: 0 } });

    gate.close();
    await start();
    const progress = subscribe(kbId);
    await progress.until((steps) => steps.length > 0);
    gate.open();
    await progress.until((steps) => settled(interrupted!.id)(steps) && settled(waiting!.id)(steps));
    await progress.stop();
    const { knowledgeBase } = await api!.admin.request(Documents, { id: kbId });
    const documents = knowledgeBase!.documents.edges.map((edge) => edge.node);
    expect(documents.map((document) => [document.title, document.status]).sort()).toEqual([["Interrupted", "READY"], ["Waiting", "READY"]]);
    expect(knowledgeBase!.chunkCount).toBe(interrupted!.chunkCount + waiting!.chunkCount);
  });
});
