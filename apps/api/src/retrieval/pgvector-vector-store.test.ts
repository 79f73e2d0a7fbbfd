import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";
import { axisVector, chunk, describeVectorStoreContract } from "@weft/providers/testing";
import { describe, expect, it } from "vitest";
import { pgliteRawSql } from "../db/raw-sql.js";
import { buildPgvectorFilter } from "./pgvector-filter.js";
import { PgvectorVectorStore, pgvectorTableName } from "./pgvector-vector-store.js";

describeVectorStoreContract("pgvector in PGlite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "weft-pgvector-"));
  const db = await PGlite.create({ dataDir: dir, extensions: { vector } });
  return {
    store: new PgvectorVectorStore(pgliteRawSql(db), { efSearch: 64 }),
    close: async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe("pgvector filters", () => {
  it("compare source columns and match metadata as JSON values, all through parameters", () => {
    expect(buildPgvectorFilter({ documentId: "d", metadata: { lang: "ko", year: 2025 } }, 3)).toEqual({
      where: "WHERE document_id = $3 AND metadata -> $4::text = $5::jsonb AND metadata -> $6::text = $7::jsonb",
      params: ["d", "lang", '"ko"', "year", "2025"],
    });
  });

  it("turn lists into ANY and ranges into bounds on numbers only", () => {
    expect(buildPgvectorFilter({ source: ["a.md", "b.md"], page: { gte: 2, lte: 4 } }, 1)).toEqual({
      where: "WHERE title = ANY($1::text[]) AND page >= $2::double precision AND page <= $3::double precision",
      params: [["a.md", "b.md"], 2, 4],
    });
    expect(buildPgvectorFilter({ metadata: { year: { gte: 2024 } } }, 1).where).toContain("jsonb_typeof(metadata -> $1::text) = 'number'");
  });

  it("match nothing when a source field is given a value of the wrong type", () => {
    expect(buildPgvectorFilter({ chunkIndex: ["seven"] as unknown as number[] }, 3)).toEqual({ where: "WHERE FALSE", params: [] });
  });

  it("are empty without conditions", () => {
    expect(buildPgvectorFilter(undefined, 3)).toEqual({ where: "", params: [] });
    expect(buildPgvectorFilter({}, 3)).toEqual({ where: "", params: [] });
  });
});

describe("pgvectorTableName", () => {
  it("gives any collection name a valid, distinct identifier", () => {
    const names = ["kb", "KB", "지식 베이스", "a".repeat(300)].map(pgvectorTableName);
    expect(new Set(names).size).toBe(4);
    for (const name of names) expect(name).toMatch(/^[a-z_][a-z0-9_]{0,62}$/);
  });
});

describe("PgvectorVectorStore.withIndexSuspended", () => {
  it("loads without the HNSW index and rebuilds it afterwards", async () => {
    const db = await PGlite.create({ extensions: { vector } });
    const store = new PgvectorVectorStore(pgliteRawSql(db));
    await store.ensureCollection("bulk", 8);
    const indexes = async () =>
      (await db.query<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE tablename = $1", [pgvectorTableName("bulk")])).rows
        .map((row) => row.indexname)
        .filter((name) => name.endsWith("_hnsw"));
    const during = await store.withIndexSuspended("bulk", async () => {
      await store.upsert("bulk", [chunk("c1", axisVector(0)), chunk("c2", axisVector(1))]);
      return indexes();
    });
    expect(during).toEqual([]);
    expect(await indexes()).toHaveLength(1);
    expect((await store.search("bulk", { vector: axisVector(1), topK: 1 }))[0]?.id).toBe("c2");
    await db.close();
  });
});
