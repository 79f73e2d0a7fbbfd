import { expect, it } from "vitest";
import { describeEachDatabase } from "../testing/database.js";
import { sqlLiteral } from "./sql-literal.js";

describeEachDatabase("raw SQL scripts", (suite) => {
  it("runs several statements in one message, answers the last one's rows and keeps SET LOCAL to that message", async () => {
    const raw = suite.db().raw;
    const before = (await raw.query<{ setting: string }>("SELECT current_setting('work_mem') AS setting")).rows[0]?.setting;
    const { rows } = await raw.script<{ setting: string; n: number }>("SET LOCAL work_mem = '7MB'; SELECT current_setting('work_mem') AS setting, 2 AS n");
    expect(rows).toEqual([{ setting: "7MB", n: 2 }]);
    expect((await raw.query<{ setting: string }>("SELECT current_setting('work_mem') AS setting")).rows[0]?.setting).toBe(before);
  });

  it("writes any text as a literal that reads back unchanged: quotes, backslashes, Korean", async () => {
    const raw = suite.db().raw;
    for (const text of ["plain", "it's", "a\\b", "\\'; DROP TABLE x; --", "무등산 '국립공원'", ""]) {
      const { rows } = await raw.script<{ text: string }>(`SELECT ${sqlLiteral(text)} AS text`);
      expect(rows).toEqual([{ text }]);
    }
  });
});
