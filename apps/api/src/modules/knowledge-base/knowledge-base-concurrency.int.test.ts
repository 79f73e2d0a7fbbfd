import { startWeaviateServer, type WeaviateServer } from "@weft/providers/testing";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import type { EnvName } from "../../env.js";
import { startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";

/**
 * Configured defaults (chunking, hybrid alpha) and concurrent requests on knowledge bases, through
 * the real server: pgvector in PGlite (embedded) and a real Weaviate server (server mode).
 */

const CreateKbWithDefaults = graphql(`
  mutation KbCreateDefaults($input: CreateKnowledgeBaseInput!) {
    createKnowledgeBase(input: $input) { knowledgeBase { id chunkSize chunkOverlap } errors { code message path } }
  }
`);

const AddDocumentsConcurrently = graphql(`
  mutation KbAddConcurrently($id: ID!, $documents: [DocumentInput!]!) {
    addDocuments(knowledgeBaseId: $id, documents: $documents, waitForIndexing: true) {
      documents { id title status }
      errors { code message path }
    }
  }
`);

const SearchScores = graphql(`
  query KbSearchScores($input: SearchKnowledgeBaseInput!) {
    searchKnowledgeBase(input: $input) { hits { chunkId score } }
  }
`);

const NOTES = [
  "Sencha is a steamed green tea with a grassy taste.",
  "Espresso is brewed by forcing hot water through finely ground coffee.",
  "Matcha is stone-ground green tea powder whisked with water.",
].join("\n\n");

let weaviate: WeaviateServer | undefined;
afterAll(async () => {
  await weaviate?.stop();
});

describeEachDatabase("knowledge-base defaults and concurrency through the API", (suite) => {
  let api: TestApp | undefined;
  beforeAll(async () => {
    if (suite.mode === "server") weaviate ??= await startWeaviateServer();
  }, 120_000);
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });
  const start = async (env: Partial<Record<EnvName, string>> = {}) => {
    const store = weaviate && suite.mode === "server" ? { WEAVIATE_URL: weaviate.url, WEAVIATE_GRPC_PORT: String(weaviate.grpcPort) } : {};
    api = await startTestApp(suite.db(), { env: { ...store, ...env } });
  };

  test("new knowledge bases take WEFT_CHUNK_SIZE / WEFT_CHUNK_OVERLAP unless the input gives its own", async () => {
    await start({ WEFT_CHUNK_SIZE: "400", WEFT_CHUNK_OVERLAP: "40" });
    const defaults = await api!.admin.request(CreateKbWithDefaults, { input: { name: "configured" } });
    expect(defaults.createKnowledgeBase.knowledgeBase).toMatchObject({ chunkSize: 400, chunkOverlap: 40 });
    const ownSize = await api!.admin.request(CreateKbWithDefaults, { input: { name: "own-size", chunkSize: 100 } });
    expect(ownSize.createKnowledgeBase.knowledgeBase).toMatchObject({ chunkSize: 100, chunkOverlap: 25 });
    const ownOverlap = await api!.admin.request(CreateKbWithDefaults, { input: { name: "own-overlap", chunkOverlap: 0 } });
    expect(ownOverlap.createKnowledgeBase.knowledgeBase).toMatchObject({ chunkSize: 400, chunkOverlap: 0 });
  });

  test("searchKnowledgeBase without alpha searches with WEFT_HYBRID_ALPHA", async () => {
    await start({ WEFT_HYBRID_ALPHA: "0.2" });
    const created = await api!.admin.request(CreateKbWithDefaults, { input: { name: "alpha", chunkSize: 60, chunkOverlap: 0 } });
    const id = created.createKnowledgeBase.knowledgeBase!.id;
    await api!.admin.request(AddDocumentsConcurrently, { id, documents: [{ title: "notes", content: NOTES }] });
    const scores = async (alpha?: number) => {
      const input = { name: "alpha", query: "green tea powder", topK: 3, ...(alpha === undefined ? {} : { alpha }) };
      return (await api!.admin.request(SearchScores, { input })).searchKnowledgeBase.hits;
    };
    const byDefault = await scores();
    expect(byDefault.length).toBe(3);
    expect(byDefault).toEqual(await scores(0.2));
    // Weaviate fuses BM25 and vectors, so another alpha scores differently; pgvector ignores alpha.
    if (suite.mode === "server") expect(byDefault).not.toEqual(await scores(1));
    else expect(byDefault).toEqual(await scores(1));
  });

  // Eight at once reliably interleave so that some pass the duplicate check before any insert, and the
  // unique (knowledgeBaseId, contentHash) index refuses their inserts (Prisma P2002).
  test("concurrent addDocuments with the same content store it once and report the others as DUPLICATE_DOCUMENT", async () => {
    await start();
    const created = await api!.admin.request(CreateKbWithDefaults, { input: { name: "race" } });
    const id = created.createKnowledgeBase.knowledgeBase!.id;
    const send = (title: string) => api!.admin.request(AddDocumentsConcurrently, { id, documents: [{ title, content: NOTES }] });
    const results = await Promise.all(Array.from({ length: 8 }, (_, k) => send(`copy ${k}`)));
    const payloads = results.map((result) => result.addDocuments);
    const added = payloads.flatMap((payload) => payload.documents);
    expect(added).toHaveLength(1);
    expect(added[0]!.status).toBe("READY");
    const errors = payloads.flatMap((payload) => payload.errors);
    expect(errors.map((error) => [error.code, error.path])).toEqual(Array.from({ length: 7 }, () => ["DUPLICATE_DOCUMENT", ["documents", "0"]]));
    expect(await suite.db().prisma.document.count({ where: { knowledgeBaseId: id } })).toBe(1);
  });
});
