import { describe, expect, test } from "vitest";
import { EnvError, loadEnv } from "./env.js";

describe("loadEnv", () => {
  test("an empty environment gives the documented defaults", () => {
    const env = loadEnv({}, {});
    expect(env).toMatchObject({ PORT: 4000, HOST: "127.0.0.1", WEFT_AUTH: "required", WEFT_DATA_DIR: "./.weft-data", WEFT_SEED_DEMO: true, CORS_ORIGINS: [] });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  test("the demo workflow is seeded by default in embedded mode only; WEFT_SEED_DEMO decides when set", () => {
    expect(loadEnv({}, {}).WEFT_SEED_DEMO).toBe(true);
    expect(loadEnv({ DATABASE_URL: "postgresql://weft@db/weft" }, {}).WEFT_SEED_DEMO).toBe(false);
    expect(loadEnv({ DATABASE_URL: "postgresql://weft@db/weft", WEFT_SEED_DEMO: "true" }, {}).WEFT_SEED_DEMO).toBe(true);
    expect(loadEnv({ WEFT_SEED_DEMO: "0" }, {}).WEFT_SEED_DEMO).toBe(false);
  });

  test("every invalid variable is named in one error", () => {
    const attempt = () => loadEnv({}, { PORT: "eighty", DATABASE_URL: "mysql://x", WEFT_AUTH: "off" });
    expect(attempt).toThrow(EnvError);
    try {
      attempt();
    } catch (error) {
      expect((error as EnvError).issues.map((issue) => issue.split(":")[0])).toEqual(["PORT", "DATABASE_URL", "WEFT_AUTH"]);
    }
  });

  test("lists are split on commas, empty variables count as unset, overrides win over the source", () => {
    const env = loadEnv({ PORT: "0" }, { PORT: "5000", CORS_ORIGINS: " https://a.example , https://b.example,", DATABASE_URL: "" });
    expect(env.PORT).toBe(0);
    expect(env.CORS_ORIGINS).toEqual(["https://a.example", "https://b.example"]);
    expect(env.DATABASE_URL).toBeUndefined();
  });

  test("WEFT_HTTP_ALLOW allows nothing by default, reads hosts, addresses and ranges, and refuses an entry that is none of them", () => {
    expect(loadEnv({}, {}).WEFT_HTTP_ALLOW).toEqual({ hosts: new Set(), ranges: [] });
    const allow = loadEnv({}, { WEFT_HTTP_ALLOW: "api.internal, 10.0.0.0/8,::1" }).WEFT_HTTP_ALLOW;
    expect([...allow.hosts]).toEqual(["api.internal"]);
    expect(allow.ranges.map(([address, bits]) => `${address.toString()}/${bits}`)).toEqual(["10.0.0.0/8", "::1/128"]);
    expect(() => loadEnv({}, { WEFT_HTTP_ALLOW: "10.0.0.0/40" })).toThrow(/WEFT_HTTP_ALLOW: "10.0.0.0\/40" is not a host name/);
  });

  test("retrieval and provider settings default to the adapters' own defaults", () => {
    const env = loadEnv({}, {});
    expect(env).toMatchObject({ WEFT_HYBRID_ALPHA: 0.75, WEFT_CHUNK_SIZE: 800, MISTRAL_TIMEOUT_MS: 120_000, WEFT_PGVECTOR_EF_SEARCH: 100 });
    expect(env.WEFT_CHUNK_OVERLAP).toBeUndefined();
  });

  test("retrieval settings are read and coerced", () => {
    const env = loadEnv({}, { WEFT_HYBRID_ALPHA: "0.3", WEFT_CHUNK_SIZE: "400", WEFT_CHUNK_OVERLAP: "50", MISTRAL_TIMEOUT_MS: "5000", WEFT_PGVECTOR_EF_SEARCH: "200" });
    expect(env).toMatchObject({ WEFT_HYBRID_ALPHA: 0.3, WEFT_CHUNK_SIZE: 400, WEFT_CHUNK_OVERLAP: 50, MISTRAL_TIMEOUT_MS: 5000, WEFT_PGVECTOR_EF_SEARCH: 200 });
  });

  test("an alpha outside 0..1 and a zero timeout are refused by name", () => {
    try {
      loadEnv({}, { WEFT_HYBRID_ALPHA: "1.5", MISTRAL_TIMEOUT_MS: "0", WEFT_PGVECTOR_EF_SEARCH: "0" });
      expect.unreachable();
    } catch (error) {
      expect((error as EnvError).issues.map((issue) => issue.split(":")[0])).toEqual(["WEFT_HYBRID_ALPHA", "MISTRAL_TIMEOUT_MS", "WEFT_PGVECTOR_EF_SEARCH"]);
    }
  });

  test("a chunk overlap not smaller than the chunk size is refused with a clear message", () => {
    const attempt = () => loadEnv({}, { WEFT_CHUNK_SIZE: "300", WEFT_CHUNK_OVERLAP: "300" });
    expect(attempt).toThrow(EnvError);
    expect(attempt).toThrow(/WEFT_CHUNK_OVERLAP: Chunk overlap must be an integer from 0 to half the chunk size \(150\), got 300/);
  });

  test("a chunk size outside the chunker's bounds is refused by name", () => {
    expect(() => loadEnv({}, { WEFT_CHUNK_SIZE: "10" })).toThrow(/WEFT_CHUNK_SIZE: Chunk size must be an integer from 50/);
  });

  test("a small chunk size without an overlap gets a fitting overlap rather than an error", () => {
    expect(loadEnv({}, { WEFT_CHUNK_SIZE: "100" }).WEFT_CHUNK_SIZE).toBe(100);
  });

  test("Redis is off by default and needs a server database when set", () => {
    expect(loadEnv({}, {})).toMatchObject({ WEFT_REDIS_PREFIX: "weft", WEFT_QUEUE_LOCK_MS: 5_000, WEFT_RUN_MAX_ATTEMPTS: 3, WEFT_SHUTDOWN_GRACE_MS: 10_000 });
    expect(loadEnv({}, {}).REDIS_URL).toBeUndefined();
    const server = { DATABASE_URL: "postgresql://weft@db/weft" };
    expect(loadEnv({ ...server, REDIS_URL: "redis://cache:6380/2" }, {}).REDIS_URL).toBe("redis://cache:6380/2");
    expect(() => loadEnv({ REDIS_URL: "redis://cache:6380" }, {})).toThrow(/REDIS_URL: needs DATABASE_URL/);
    expect(() => loadEnv({ ...server, REDIS_URL: "http://cache" }, {})).toThrow(/REDIS_URL/);
    expect(() => loadEnv({ WEFT_REDIS_PREFIX: "a b" }, {})).toThrow(/WEFT_REDIS_PREFIX/);
  });
});
