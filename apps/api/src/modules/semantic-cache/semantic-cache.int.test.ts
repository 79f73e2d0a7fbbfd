import { afterEach, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";
import { RunWorkflow } from "../../testing/operations.js";

/**
 * Listing and clearing semantic caches through the real server. Embedded mode keeps caches in pgvector;
 * the test PostgreSQL server has no pgvector and no Weaviate is configured, so there the API says
 * SEMANTIC_CACHE_UNAVAILABLE.
 */

const ImportCached = graphql(`
  mutation CacheImport($document: JSON!) { importWorkflow(document: $document) { workflow { id version } errors { code message } } }
`);

const CacheRunEvents = graphql(`
  subscription CacheEvents($runId: ID!) { runEvents(runId: $runId, afterSeq: 0) { type nodeId } }
`);

const Entries = graphql(`
  query CacheEntries($scope: SemanticCacheScopeInput!, $first: Int, $after: String) {
    semanticCacheEntries(scope: $scope, first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { scope query answer expiresAt } }
    }
  }
`);

const Clear = graphql(`
  mutation CacheClear($scope: SemanticCacheScopeInput!) { clearSemanticCache(scope: $scope) { cleared errors { code message path } } }
`);

/**
 *  q ─► faq (cache_lookup, namespace faq) ─[miss]─► answer (template) ─► store (cache_store, namespace faq) ─► j ─► out
 *            └─[hit]────────────────────────────────────────────────────────────────────────────────────┘
 *  answer is also cached by the draft's own scope (own_store).
 */
const CACHED = {
  format: "weft.workflow/v2",
  name: "cached answers",
  nodes: [
    { id: "q", type: "input", content: "" },
    { id: "faq", type: "cache_lookup", namespace: "faq", threshold: 0.95 },
    { id: "answer", type: "template", template: "answer to: {input}" },
    { id: "store", type: "cache_store", namespace: "faq", ttlSeconds: 3600 },
    { id: "own_store", type: "cache_store" },
    { id: "j", type: "join" },
    { id: "out", type: "output" },
  ],
  edges: [
    { source: "q", target: "faq" },
    { source: "faq", sourcePort: "hit", target: "j" },
    { source: "faq", sourcePort: "miss", target: "answer" },
    { source: "answer", target: "store" },
    { source: "store", target: "own_store" },
    { source: "own_store", target: "j" },
    { source: "j", target: "out" },
  ],
};

describeEachDatabase("semantic caches through the API", (suite) => {
  let api: TestApp | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  async function ask(workflowId: string, question: string): Promise<string[]> {
    const { runWorkflow } = await api!.admin.request(RunWorkflow, { workflowId, input: { draft: true, inputs: [{ nodeId: "q", content: question }] } });
    expect(runWorkflow.errors).toEqual([]);
    const ws = api!.admin.ws();
    const collected = api!.admin.subscribe(ws, CacheRunEvents, { runId: runWorkflow.run!.id });
    await collected.ended;
    await ws.dispose();
    return collected.items.map((item) => item.runEvents.type).filter((type) => type === "CACHE_HIT" || type === "CACHE_MISS");
  }

  test("a namespace's and a draft's entries are listed newest first, and clearing a cache makes the next lookup miss", async () => {
    api = await startTestApp(suite.db());
    const { importWorkflow } = await api.admin.request(ImportCached, { document: CACHED });
    const workflowId = importWorkflow.workflow!.id;
    const draftEditVersion = importWorkflow.workflow!.version;
    await ask(workflowId, "what is bm25");
    await ask(workflowId, "what is hybrid search");
    const faq = { namespace: "faq" };
    if (suite.mode === "server") {
      const refused = await api.admin.execute(Entries, { scope: faq });
      expect(refused.errors.map((error) => error.extensions?.code)).toEqual(["SEMANTIC_CACHE_UNAVAILABLE"]);
      expect((await api.admin.request(Clear, { scope: faq })).clearSemanticCache.errors.map((error) => error.code)).toEqual(["SEMANTIC_CACHE_UNAVAILABLE"]);
      return;
    }
    const listed = (await api.admin.request(Entries, { scope: faq, first: 1 })).semanticCacheEntries;
    expect(listed.totalCount).toBe(2);
    expect(listed.edges.map(({ node }) => node)).toEqual([
      { scope: "ns:faq", query: "what is hybrid search", answer: "answer to: what is hybrid search", expiresAt: expect.any(String) },
    ]);
    const rest = (await api.admin.request(Entries, { scope: faq, first: 5, after: listed.pageInfo.endCursor })).semanticCacheEntries;
    expect(rest.edges.map(({ node }) => node.query)).toEqual(["what is bm25"]);
    expect(rest.pageInfo.hasNextPage).toBe(false);
    const own = (await api.admin.request(Entries, { scope: { workflowId, draftEditVersion } })).semanticCacheEntries;
    expect(own.edges.map(({ node }) => [node.scope, node.expiresAt])).toEqual([
      [`workflow:${workflowId}:draft@${draftEditVersion}`, null],
      [`workflow:${workflowId}:draft@${draftEditVersion}`, null],
    ]);

    expect(await ask(workflowId, "what is bm25")).toEqual(["CACHE_HIT"]);
    expect((await api.admin.request(Clear, { scope: faq })).clearSemanticCache).toEqual({ cleared: 2, errors: [] });
    expect((await api.admin.request(Entries, { scope: faq })).semanticCacheEntries.totalCount).toBe(0);
    expect((await api.admin.request(Entries, { scope: { workflowId, draftEditVersion } })).semanticCacheEntries.totalCount).toBe(2);
    expect(await ask(workflowId, "what is bm25")).toEqual(["CACHE_MISS"]);
  });

  test("a scope must be a namespace, or a workflow with exactly one of version and draftEditVersion", async () => {
    api = await startTestApp(suite.db());
    const cases = [
      [{}, ["scope", "workflowId"]],
      [{ namespace: "faq", version: 1 }, ["scope", "namespace"]],
      [{ workflowId: "w", version: 1, draftEditVersion: 2 }, ["scope", "draftEditVersion"]],
      [{ namespace: " " }, ["scope", "namespace"]],
    ] as const;
    for (const [scope, path] of cases) {
      const { clearSemanticCache } = await api.admin.request(Clear, { scope });
      expect(clearSemanticCache.errors.map((error) => [error.code, error.path])).toEqual([["VALIDATION_FAILED", path]]);
    }
    const raw = await api.admin.execute(Entries, { scope: {} });
    expect(raw.errors.map((error) => [error.extensions?.code, error.extensions?.path])).toEqual([["BAD_USER_INPUT", ["scope", "workflowId"]]]);
  });
});
