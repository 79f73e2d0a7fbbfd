import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";
import { LOCAL_EMBEDDER_MODEL, MISTRAL_EMBED_MODEL } from "@weft/providers";
import { describe, expect, it } from "vitest";
import { pgliteRawSql } from "../db/raw-sql.js";
import { createRetrievalServices, retrievalConfigFromEnv } from "./retrieval-services.js";

const env = {
  MISTRAL_API_KEY: undefined,
  MISTRAL_SERVER_URL: undefined,
  WEAVIATE_URL: undefined,
  WEAVIATE_GRPC_PORT: 50051,
  WEAVIATE_API_KEY: undefined,
  WEFT_EMBEDDER: "local" as const,
};

describe("createRetrievalServices", () => {
  it("defaults to pgvector in the embedded database and the local embedder", async () => {
    const db = await PGlite.create({ extensions: { vector } });
    const services = createRetrievalServices(retrievalConfigFromEnv(env), pgliteRawSql(db));
    expect(services.store.id).toBe("pgvector");
    expect(services.defaultEmbedder.model).toBe(LOCAL_EMBEDDER_MODEL);
    expect(services.embedders.map((e) => e.model)).toEqual([LOCAL_EMBEDDER_MODEL]);
    const result = await services.retriever(async () => null).retrieve("kb", "q", 3, new AbortController().signal).catch((e: unknown) => e);
    expect(result).toMatchObject({ code: "KNOWLEDGE_BASE_NOT_FOUND" });
    await services.close();
    await db.close();
  });

  it("uses Weaviate when WEAVIATE_URL is set and offers both embedders with a Mistral key", () => {
    const services = createRetrievalServices(
      retrievalConfigFromEnv({ ...env, WEAVIATE_URL: "http://127.0.0.1:8080", MISTRAL_API_KEY: "k", WEFT_EMBEDDER: "mistral" }),
      { query: () => Promise.reject(new Error("not used")) },
    );
    expect(services.store.id).toBe("weaviate");
    expect(services.defaultEmbedder.model).toBe(MISTRAL_EMBED_MODEL);
    expect(services.embedders.map((e) => e.model)).toEqual([LOCAL_EMBEDDER_MODEL, MISTRAL_EMBED_MODEL]);
  });

  it("refuses the Mistral embedder without a key", () => {
    expect(() => createRetrievalServices(retrievalConfigFromEnv({ ...env, WEFT_EMBEDDER: "mistral" }), { query: () => Promise.reject(new Error("x")) })).toThrow(
      expect.objectContaining({ code: "INVALID_PROVIDER_CONFIG" }),
    );
  });
});
