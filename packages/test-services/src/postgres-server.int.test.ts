import { existsSync } from "node:fs";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { startPostgresServer } from "./postgres-server.js";

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("test PostgreSQL server", () => {
  it("starts two independent servers on loopback and removes everything when stopped", async () => {
    const [a, b] = await Promise.all([startPostgresServer(), startPostgresServer({ database: "other" })]);
    try {
      expect(a.port).not.toBe(b.port);
      expect(a.url).toMatch(/^postgresql:\/\/postgres@127\.0\.0\.1:\d+\/weft$/);
      await query(a.url, "CREATE TABLE only_in_a (x int)");
      const inB = await query(b.url, "SELECT to_regclass('only_in_a') AS t");
      expect(inB).toEqual([{ t: null }]);
      const [version] = (await query(b.url, "SHOW server_version_num")) as { server_version_num: string }[];
      expect(Number(version?.server_version_num)).toBeGreaterThanOrEqual(150000);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    await expect(query(a.url, "SELECT 1")).rejects.toThrow();
  }, 120_000);

  it("fails with a clear error when the PostgreSQL binaries are missing", async () => {
    await expect(startPostgresServer({ binDir: "/nonexistent/bin" })).rejects.toMatchObject({
      code: "TEST_POSTGRES_UNAVAILABLE",
    });
    expect(existsSync("/nonexistent")).toBe(false);
  });
});
