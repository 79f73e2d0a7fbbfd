import { startWeaviateServer, type WeaviateServer } from "@weft/providers/testing";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { seedWorkflow, startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase, type TestDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";
import { RunDetail, RunWorkflow } from "../../testing/operations.js";
import { arrows } from "../../testing/workflows.js";

/**
 * Knowledge bases through the real server: embedded mode keeps vectors in PGlite's pgvector, server
 * mode (PostgreSQL) in a real Weaviate server started here. The local embedder needs no network.
 * Mutations here wait for indexing; asynchronous ingestion is tested in knowledge-base-ingestion.int.test.ts.
 */

const CreateKb = graphql(`
  mutation KbCreate($input: CreateKnowledgeBaseInput!) {
    createKnowledgeBase(input: $input) {
      knowledgeBase { id name embeddingModel dimension store chunkSize chunkOverlap }
      errors { code message path }
    }
  }
`);

const AddDocuments = graphql(`
  mutation KbAddDocuments($id: ID!, $documents: [DocumentInput!]!) {
    addDocuments(knowledgeBaseId: $id, documents: $documents, waitForIndexing: true) {
      knowledgeBase { documentCount chunkCount }
      documents { id title mimeType status chunkCount error length }
      errors { code message path }
    }
  }
`);

const KnowledgeBase = graphql(`
  query KbGet($name: String, $id: ID, $after: String) {
    knowledgeBase(name: $name, id: $id) {
      id name documentCount chunkCount
      documents { totalCount edges { node { id title status chunkCount chunks(first: 2, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { id text source { title chunkIndex } } } } } } }
    }
  }
`);

const DocumentChunks = graphql(`
  query KbDocumentChunks($documentId: ID!, $first: Int, $after: String) {
    documentChunks(documentId: $documentId, first: $first, after: $after) {
      totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id text source { documentId title chunkIndex } } }
    }
  }
`);

const ListKbs = graphql(`
  query KbList { knowledgeBases(first: 10) { totalCount edges { node { name store } } } }
`);

const Search = graphql(`
  query KbSearch($input: SearchKnowledgeBaseInput!) {
    searchKnowledgeBase(input: $input) { store topK hits { chunkId text score label source { documentId title chunkIndex } } }
  }
`);

const RemoveDocument = graphql(`
  mutation KbRemoveDocument($id: ID!) { removeDocument(documentId: $id) { removedDocumentId errors { code message } } }
`);

const Reindex = graphql(`
  mutation KbReindex($id: ID!) { reindexKnowledgeBase(id: $id, waitForIndexing: true) { documents { title status chunkCount } errors { code message } } }
`);

const DeleteKb = graphql(`
  mutation KbDelete($id: ID!) { deleteKnowledgeBase(id: $id) { deletedKnowledgeBaseId errors { code message } } }
`);

const TEA = [
  "Green tea is steamed or pan-fired soon after picking, which keeps its leaves green.",
  "Black tea is fully oxidised before drying, which darkens the leaves and deepens the flavour.",
  "",
  "Oolong sits between the two: partly oxidised, rolled, and often roasted.",
].join("\n");

const HANGUL = "# 김치\n\n김치는 배추와 무를 소금에 절여 고춧가루, 마늘, 생강과 함께 발효시킨 한국의 전통 음식이다.\n\n## 보관\n\n김치는 낮은 온도에서 천천히 익힌다.";

const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

async function kbSnapshot(db: TestDatabase) {
  const [knowledgeBases, documents] = await Promise.all([
    db.prisma.knowledgeBase.findMany({ orderBy: { id: "asc" } }),
    db.prisma.document.findMany({ orderBy: { id: "asc" } }),
  ]);
  return { knowledgeBases, documents };
}

let weaviate: WeaviateServer | undefined;
afterAll(async () => {
  await weaviate?.stop();
});

describeEachDatabase("knowledge bases through the API", (suite) => {
  let api: TestApp | undefined;
  beforeAll(async () => {
    if (suite.mode === "server") weaviate ??= await startWeaviateServer();
  }, 120_000);
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });
  const expectedStore = suite.mode === "server" ? "weaviate" : "pgvector";
  const start = async () => {
    const env = weaviate && suite.mode === "server" ? { WEAVIATE_URL: weaviate.url, WEAVIATE_GRPC_PORT: String(weaviate.grpcPort) } : {};
    api = await startTestApp(suite.db(), { env });
  };

  async function createKb(name: string, extra: Record<string, unknown> = {}) {
    const { createKnowledgeBase } = await api!.admin.request(CreateKb, { input: { name, chunkSize: 80, chunkOverlap: 10, ...extra } });
    expect(createKnowledgeBase.errors).toEqual([]);
    return createKnowledgeBase.knowledgeBase!;
  }

  async function addTeaAndKimchi(kbId: string) {
    const { addDocuments } = await api!.admin.request(AddDocuments, {
      id: kbId,
      documents: [
        { title: "Tea guide", content: TEA },
        { title: "kimchi.md", content: base64(HANGUL), encoding: "BASE64" },
      ],
    });
    expect(addDocuments.errors).toEqual([]);
    return addDocuments;
  }

  test("creates a knowledge base recording the embedder, its dimension and the store; names are unique", async () => {
    await start();
    const kb = await createKb("handbook");
    expect(kb).toMatchObject({ name: "handbook", embeddingModel: "weft-local-hash-v1", dimension: 512, store: expectedStore, chunkSize: 80, chunkOverlap: 10 });
    const again = await api!.admin.request(CreateKb, { input: { name: "handbook" } });
    expect(again.createKnowledgeBase.errors.map((error) => error.code)).toEqual(["CONFLICT"]);
    const { knowledgeBases } = await api!.admin.request(ListKbs);
    expect(knowledgeBases.edges.map((edge) => edge.node)).toEqual([{ name: "handbook", store: expectedStore }]);
  });

  test("refuses bad knowledge-base and document input without storing anything", async () => {
    // A 1×1 PNG, sent as a PDF: the content decides, and images are not documents.
    const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgYAAAAAMAASsJTYQAAAAASUVORK5CYII=";
    await start();
    const kb = await createKb("strict");
    const before = await kbSnapshot(suite.db());
    const bad = [
      [await api!.admin.request(CreateKb, { input: { name: "has space" } }), "VALIDATION_FAILED"],
      [await api!.admin.request(CreateKb, { input: { name: "n".repeat(65) } }), "LIMIT_EXCEEDED"],
      [await api!.admin.request(CreateKb, { input: { name: "tiny", chunkSize: 10 } }), "VALIDATION_FAILED"],
      [await api!.admin.request(CreateKb, { input: { name: "lap", chunkSize: 100, chunkOverlap: 90 } }), "VALIDATION_FAILED"],
      [await api!.admin.request(AddDocuments, { id: kb.id, documents: [{ title: "ok", content: "fine" }, { title: "photo.pdf", content: PNG, encoding: "BASE64", mimeType: "application/pdf" }] }), "DOCUMENT_TYPE_UNSUPPORTED"],
      [await api!.admin.request(AddDocuments, { id: kb.id, documents: [{ title: "bin", content: base64("\u0000") + "%%", encoding: "BASE64" }] }), "VALIDATION_FAILED"],
      [await api!.admin.request(AddDocuments, { id: kb.id, documents: [] }), "VALIDATION_FAILED"],
      [await api!.admin.request(AddDocuments, { id: kb.id, documents: Array.from({ length: 101 }, (_, k) => ({ title: `d${k}`, content: `text ${k}` })) }), "LIMIT_EXCEEDED"],
      [await api!.admin.request(AddDocuments, { id: "00000000-0000-4000-8000-000000000000", documents: [{ title: "t", content: "c" }] }), "NOT_FOUND"],
      [await api!.admin.request(DeleteKb, { id: "00000000-0000-4000-8000-000000000000" }), "NOT_FOUND"],
    ] as const;
    for (const [data, code] of bad) {
      const payload = Object.values(data)[0] as { errors: { code: string }[] };
      expect(payload.errors.map((error) => error.code), JSON.stringify(payload.errors)).toContain(code);
    }
    expect(await kbSnapshot(suite.db())).toEqual(before);
  });

  test("indexes text and base64 Markdown documents, browses their chunks and finds them by search", async () => {
    await start();
    const kb = await createKb("food");
    const added = await addTeaAndKimchi(kb.id);
    expect(added.documents.map((document) => [document.title, document.mimeType, document.status])).toEqual([
      ["Tea guide", "text/plain", "READY"],
      ["kimchi.md", "text/markdown", "READY"],
    ]);
    expect(added.documents.every((document) => document.chunkCount > 0)).toBe(true);
    expect(added.knowledgeBase!.chunkCount).toBe(added.documents.reduce((sum, document) => sum + document.chunkCount, 0));

    const { knowledgeBase } = await api!.admin.request(KnowledgeBase, { name: "food" });
    const tea = knowledgeBase!.documents.edges.map((edge) => edge.node).find((node) => node.title === "Tea guide")!;
    expect(tea.chunks.totalCount).toBe(tea.chunkCount);
    const secondPage = (await api!.admin.request(KnowledgeBase, { id: kb.id, after: tea.chunks.pageInfo.endCursor })).knowledgeBase!;
    const teaPage2 = secondPage.documents.edges.find((edge) => edge.node.id === tea.id)!.node.chunks;
    expect(teaPage2.edges[0]?.node.source.chunkIndex).toBe(2);

    const english = (await api!.admin.request(Search, { input: { name: "food", query: "oxidised black tea leaves", topK: 2 } })).searchKnowledgeBase;
    expect(english.store).toBe(expectedStore);
    expect(english.hits[0]!.source.title).toBe("Tea guide");
    expect(english.hits[0]!.label).toMatch(/^Tea guide \(chunk \d+\)$/);
    const korean = (await api!.admin.request(Search, { input: { name: "food", query: "김치 발효", intensity: "LOW" } })).searchKnowledgeBase;
    expect(korean.topK).toBe(3);
    expect(korean.hits[0]!.source.title).toBe("kimchi.md");
    // No intensity: MEDIUM, as for a model node (WEFT_TOPK_MEDIUM, 5 by default).
    expect((await api!.admin.request(Search, { input: { name: "food", query: "tea" } })).searchKnowledgeBase.topK).toBe(5);
  });

  test("documentChunks pages through one document's chunks by its id; an unknown document is null", async () => {
    await start();
    const kb = await createKb("paged");
    const added = await addTeaAndKimchi(kb.id);
    const tea = added.documents.find((document) => document.title === "Tea guide")!;
    const seen: number[] = [];
    let after: string | null = null;
    for (;;) {
      const page: { documentChunks: { totalCount: number; pageInfo: { hasNextPage: boolean; endCursor?: string | null }; edges: { node: { source: { documentId: string; chunkIndex: number } } }[] } | null } =
        await api!.admin.request(DocumentChunks, { documentId: tea.id, first: 2, after });
      const chunks = page.documentChunks!;
      expect(chunks.totalCount).toBe(tea.chunkCount);
      expect(chunks.edges.every((edge) => edge.node.source.documentId === tea.id)).toBe(true);
      seen.push(...chunks.edges.map((edge) => edge.node.source.chunkIndex));
      if (!chunks.pageInfo.hasNextPage) break;
      after = chunks.pageInfo.endCursor ?? null;
    }
    expect(seen).toEqual(Array.from({ length: tea.chunkCount }, (_, index) => index));
    expect(tea.chunkCount).toBeGreaterThan(2);

    expect((await api!.admin.request(DocumentChunks, { documentId: "00000000-0000-4000-8000-000000000000" })).documentChunks).toBeNull();
    expect((await api!.admin.request(DocumentChunks, { documentId: "not-a-uuid" })).documentChunks).toBeNull();
    const badCursor = await api!.admin.execute(DocumentChunks, { documentId: tea.id, after: "bm9wZQ" });
    expect(badCursor.errors[0]?.extensions?.["code"]).toBe("BAD_USER_INPUT");
    const anonymous = await api!.anonymous.execute(DocumentChunks, { documentId: tea.id });
    expect(anonymous.errors[0]?.extensions?.["code"]).toBe("UNAUTHENTICATED");
  });

  test("reports a duplicate document per document and still adds the others", async () => {
    await start();
    const kb = await createKb("dupes");
    await addTeaAndKimchi(kb.id);
    const { addDocuments } = await api!.admin.request(AddDocuments, {
      id: kb.id,
      documents: [
        { title: "Tea again", content: TEA.replace(/\n/g, "\r\n") },
        { title: "Coffee", content: "Coffee beans are roasted seeds." },
        { title: "Coffee twice", content: "Coffee beans are roasted seeds." },
      ],
    });
    expect(addDocuments.documents.map((document) => document.title)).toEqual(["Coffee"]);
    expect(addDocuments.errors.map((error) => [error.code, error.path])).toEqual([
      ["DUPLICATE_DOCUMENT", ["documents", "0"]],
      ["DUPLICATE_DOCUMENT", ["documents", "2"]],
    ]);
    expect(addDocuments.errors[0]!.message).toContain("Tea guide");
    expect(await suite.db().prisma.document.count()).toBe(3);
  });

  test("removes a document from search, re-indexes the rest, and deletes the knowledge base", async () => {
    await start();
    const kb = await createKb("lifecycle");
    const added = await addTeaAndKimchi(kb.id);
    const tea = added.documents.find((document) => document.title === "Tea guide")!;
    expect((await api!.admin.request(RemoveDocument, { id: tea.id })).removeDocument).toEqual({ removedDocumentId: tea.id, errors: [] });
    const search = async () =>
      (await api!.admin.request(Search, { input: { name: "lifecycle", query: "black tea", topK: 10 } })).searchKnowledgeBase.hits;
    expect((await search()).map((hit) => hit.source.title)).not.toContain("Tea guide");

    const { reindexKnowledgeBase } = await api!.admin.request(Reindex, { id: kb.id });
    expect(reindexKnowledgeBase.errors).toEqual([]);
    expect(reindexKnowledgeBase.documents.map((document) => [document.title, document.status])).toEqual([["kimchi.md", "READY"]]);
    expect((await search()).map((hit) => hit.source.title)).toContain("kimchi.md");

    expect((await api!.admin.request(DeleteKb, { id: kb.id })).deleteKnowledgeBase.errors).toEqual([]);
    const gone = await api!.admin.execute(Search, { input: { name: "lifecycle", query: "kimchi" } });
    expect(gone.errors[0]?.extensions?.code).toBe("NOT_FOUND");
    expect(await suite.db().prisma.document.count()).toBe(0);
  });

  test("refuses an empty or over-long search, and model nodes of a run retrieve from the knowledge base", async () => {
    // in ──▶ g1 (echo, knowledge base "food") ──▶ out
    await start();
    const kb = await createKb("food");
    await addTeaAndKimchi(kb.id);
    const empty = await api!.admin.execute(Search, { input: { name: "food", query: "  " } });
    expect(empty.errors[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    const wide = await api!.admin.execute(Search, { input: { name: "food", query: "tea", topK: 51 } });
    expect(wide.errors[0]?.extensions?.code).toBe("VALIDATION_FAILED");

    const workflow = arrows(["in->g1->out"], { nodes: { in: { content: "How is oolong tea made?" } } });
    const workflowId = await seedWorkflow(suite.db(), { ...workflow, knowledgeBase: "food", intensity: "MEDIUM" });
    const { runWorkflow } = await api!.admin.request(RunWorkflow, { workflowId });
    expect(runWorkflow.errors).toEqual([]);
    let status = runWorkflow.run!.status;
    while (status === "QUEUED" || status === "RUNNING") {
      await new Promise((resolve) => setTimeout(resolve, 25));
      status = (await api!.admin.request(RunDetail, { id: runWorkflow.run!.id })).run!.status;
    }
    expect(status).toBe("COMPLETED");
    const nodeRun = await suite.db().prisma.nodeRun.findFirstOrThrow({ where: { runId: runWorkflow.run!.id, nodeKey: "g1" } });
    expect(nodeRun.store).toBe(expectedStore);
    expect(JSON.stringify(nodeRun.context)).toContain("Oolong");
  });
});
