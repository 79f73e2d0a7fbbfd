import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";
import { LocalEmbedder } from "@weft/providers";
import { MistralMockServer } from "@weft/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createLlmProviders } from "../../app/llm-providers.js";
import { pgliteRawSql, type RawQueryable, type RawSql } from "../../db/raw-sql.js";
import { loadEnv } from "../../env.js";
import type { PgvectorSemanticCache } from "../../retrieval/pgvector-semantic-cache.js";
import { createRetrievalSetup } from "./retrieval-setup.js";

/** The configuration reaches the adapters: Mistral's timeout, pgvector's ef_search, the hybrid alpha. */

let mock: MistralMockServer | undefined;
let db: PGlite | undefined;
afterEach(async () => {
  await mock?.stop();
  await db?.close();
  mock = undefined;
  db = undefined;
});

/** The real PGlite handle, recording every statement (transactions included). */
function recording(raw: RawSql, statements: string[]): RawSql {
  const wrap = (queryable: RawQueryable): RawQueryable => ({
    query: (sql, params) => {
      statements.push(sql);
      return queryable.query(sql, params);
    },
    exec: (sql) => {
      statements.push(sql);
      return queryable.exec(sql);
    },
    script: (sql) => {
      statements.push(sql);
      return queryable.script(sql);
    },
  });
  return { ...wrap(raw), transaction: (work) => raw.transaction((tx) => work(wrap(tx))) };
}

describe("retrieval setup from the configuration", () => {
  it("gives the Mistral embedder and chat provider MISTRAL_TIMEOUT_MS", async () => {
    mock = await MistralMockServer.start();
    mock.enqueueEmbeddings({ kind: "hang" }).enqueueChat({ kind: "hang" });
    const env = loadEnv({ MISTRAL_API_KEY: "test-key", MISTRAL_SERVER_URL: mock.url, MISTRAL_TIMEOUT_MS: "300", WEFT_EMBEDDER: "mistral" }, {});
    db = await PGlite.create({ extensions: { vector } });
    const setup = createRetrievalSetup(env, { raw: pgliteRawSql(db) });
    await expect(setup.embedder.embed(["a question"])).rejects.toMatchObject({ code: "PROVIDER_TIMEOUT", message: expect.stringContaining("within 300 ms") });
    const mistral = createLlmProviders(env).get("mistral")!;
    const request = { model: "mistral-small-latest", prompt: "hi", json: false, params: {}, inputData: "" };
    await expect(mistral.complete(request, new AbortController().signal)).rejects.toMatchObject({ code: "PROVIDER_TIMEOUT", message: expect.stringContaining("within 300 ms") });
  });

  it("searches pgvector with WEFT_PGVECTOR_EF_SEARCH and records WEFT_HYBRID_ALPHA", async () => {
    db = await PGlite.create({ extensions: { vector } });
    const statements: string[] = [];
    const setup = createRetrievalSetup(loadEnv({ WEFT_PGVECTOR_EF_SEARCH: "37", WEFT_HYBRID_ALPHA: "0.3" }, {}), { raw: recording(pgliteRawSql(db), statements) });
    expect(setup.store.id).toBe("pgvector");
    expect(setup.alpha).toBe(0.3);
    const embedder = new LocalEmbedder();
    await setup.store.ensureCollection("kb_test", embedder.dimension);
    await setup.store.search("kb_test", { vector: embedder.embedOne("tea"), topK: 3 });
    expect(statements).toContain("SET LOCAL hnsw.ef_search = 37");
  });
});

describe("the semantic cache's in-memory index", () => {
  async function lookupTwice(env: Record<string, string>, mode: "embedded" | "server", dataDir?: string) {
    db = await PGlite.create({ extensions: { vector } });
    const statements: string[] = [];
    const setup = createRetrievalSetup(loadEnv(env, {}), { raw: recording(pgliteRawSql(db), statements), mode, ...(dataDir ? { dataDir } : {}) });
    const embedder = new LocalEmbedder();
    const store = setup.semanticCacheStore as PgvectorSemanticCache;
    await store.put("ns:setup", { query: "what is tea", vector: embedder.embedOne("what is tea"), answer: "a drink" });
    const indexed = await store.prepareScope("ns:setup");
    statements.length = 0;
    expect((await store.lookup("ns:setup", embedder.embedOne("what is tea"), 0.9))?.entry.answer).toBe("a drink");
    return { indexed, lookup: statements.join("\n") };
  }

  it("answers lookups on the embedded database, where this process is the one writer", async () => {
    const { indexed, lookup } = await lookupTwice({}, "embedded");
    expect(indexed).toBe(true);
    expect(lookup).toContain("WHERE id IN");
  });

  it("is saved beside the embedded database's data directory when it is on disk", async () => {
    const dir = mkdtempSync(join(tmpdir(), "weft-setup-"));
    try {
      expect((await lookupTwice({}, "embedded", join(dir, "pglite"))).indexed).toBe(true);
      const [table] = readdirSync(join(dir, "cache-index"));
      expect(readdirSync(join(dir, "cache-index", table!)).map((name) => name.split(".").at(-1)).sort()).toEqual(["json", "usearch"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is not used on a server database, nor with WEFT_CACHE_MEMORY_INDEX_ENTRIES=0", async () => {
    expect(await lookupTwice({}, "server")).toMatchObject({ indexed: false, lookup: expect.stringContaining("SET LOCAL hnsw.ef_search") });
    await db?.close();
    expect(await lookupTwice({ WEFT_CACHE_MEMORY_INDEX_ENTRIES: "0" }, "embedded")).toMatchObject({ indexed: false });
  });
});
