import { startWeaviateServer, type WeaviateServer } from "@weft/providers/testing";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";

/** serverInfo's configuration details, as the admin UI's Settings page reads them. */

const Settings = graphql(`
  query ServerSettings {
    serverInfo {
      retrieval {
        vectorStore availableStores embedder { model dimension } topK { low medium high }
        hybridAlpha chunkSize chunkOverlap pgvectorEfSearch
      }
      execution { runConcurrency processConcurrency parseRepair providerTimeoutMs }
    }
  }
`);

let weaviate: WeaviateServer | undefined;
afterAll(async () => {
  await weaviate?.stop();
});

describeEachDatabase("serverInfo configuration", (suite) => {
  let api: TestApp | undefined;
  beforeAll(async () => {
    if (suite.mode === "server") weaviate ??= await startWeaviateServer();
  }, 120_000);
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  test("reports the store and embedder of new knowledge bases, top_k, alpha, chunking and concurrency as configured", async () => {
    const store = suite.mode === "server" && weaviate ? { WEAVIATE_URL: weaviate.url, WEAVIATE_GRPC_PORT: String(weaviate.grpcPort) } : {};
    api = await startTestApp(suite.db(), {
      env: {
        ...store,
        WEFT_TOPK_LOW: "2", WEFT_TOPK_MEDIUM: "6", WEFT_TOPK_HIGH: "12", WEFT_HYBRID_ALPHA: "0.4",
        WEFT_CHUNK_SIZE: "200", WEFT_PGVECTOR_EF_SEARCH: "64",
        WEFT_RUN_CONCURRENCY: "3", WEFT_PROCESS_CONCURRENCY: "9", WEFT_PARSE_REPAIR: "false", MISTRAL_TIMEOUT_MS: "30000",
      },
    });
    const { serverInfo } = await api.admin.request(Settings);
    // pgvector is offered only where the database has the `vector` extension (PGlite always does;
    // Debian's PostgreSQL 15 does not).
    const { rows } = await suite.db().raw.query<{ present: boolean }>("SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS present");
    const pgvector = rows[0]?.present ? ["pgvector"] : [];
    expect(serverInfo).toEqual({
      retrieval: {
        vectorStore: suite.mode === "server" ? "weaviate" : "pgvector",
        availableStores: suite.mode === "server" ? [...pgvector, "weaviate"] : ["pgvector"],
        embedder: { model: "weft-local-hash-v1", dimension: 512 },
        topK: { low: 2, medium: 6, high: 12 },
        hybridAlpha: 0.4,
        chunkSize: 200,
        chunkOverlap: 50,
        pgvectorEfSearch: 64,
      },
      execution: { runConcurrency: 3, processConcurrency: 9, parseRepair: false, providerTimeoutMs: 30000 },
    });
  });

  test("the configuration needs a key while the rest of serverInfo stays public", async () => {
    api = await startTestApp(suite.db());
    const anonymous = await api.anonymous.execute(`{ serverInfo { version retrieval { vectorStore } } }`);
    expect(anonymous.errors.map((error) => error.extensions?.["code"])).toEqual(["UNAUTHENTICATED"]);
    const publicPart = await api.anonymous.execute(`{ serverInfo { version authRequired } }`);
    expect(publicPart.errors).toEqual([]);
  });
});
