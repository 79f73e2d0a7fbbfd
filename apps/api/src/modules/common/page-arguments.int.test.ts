import { afterEach, expect, test } from "vitest";
import { seedWorkflow, startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { RunWorkflow } from "../../testing/operations.js";
import { arrows } from "../../testing/workflows.js";

const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64url");
/** A cursor of the right shape whose date no row can have: year 0 used to reach the database and fail there. */
const YEAR_ZERO = base64("0000-01-01T00:00:00.000Z|00000000-0000-4000-8000-000000000000");
const MINUS_ONE = base64("-000001-06-01T00:00:00.000Z|x");

describeEachDatabase(
  "page arguments of every connection",
  (suite) => {
    let api: TestApp | undefined;
    afterEach(async () => {
      await api?.close();
      api = undefined;
    });

    test("bad sizes, cursors and limits get one code, BAD_USER_INPUT, with the argument's path, on every list", async () => {
      api = await startTestApp(suite.db());
      const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->out"]));
      const { runWorkflow } = await api.admin.request(RunWorkflow, { workflowId });
      const runId = runWorkflow.run!.id;
      const kbId = "00000000-0000-4000-8000-000000000000";
      const cases: [string, string, Record<string, unknown>, string][] = [
        ["workflows first 0", "query ($first: Int) { workflows(first: $first) { totalCount } }", { first: 0 }, "first"],
        ["workflows year-0 cursor", "query ($after: String) { workflows(after: $after) { totalCount } }", { after: YEAR_ZERO }, "after"],
        ["runs first 101", "query ($first: Int) { runs(first: $first) { totalCount } }", { first: 101 }, "first"],
        ["runs year -1 cursor", "query ($after: String) { runs(after: $after) { totalCount } }", { after: MINUS_ONE }, "after"],
        ["runs bogus cursor", "query ($after: String) { runs(after: $after) { totalCount } }", { after: "bogus" }, "after"],
        ["knowledge bases first -3", "query ($first: Int) { knowledgeBases(first: $first) { totalCount } }", { first: -3 }, "first"],
        ["knowledge bases year-0 cursor", "query ($after: String) { knowledgeBases(after: $after) { totalCount } }", { after: YEAR_ZERO }, "after"],
        ["document chunks bogus cursor", `query ($after: String) { documentChunks(documentId: "${kbId}", after: $after) { totalCount } }`, { after: YEAR_ZERO }, "after"],
        ["run events negative limit", `query ($limit: Int!) { run(id: "${runId}") { events(limit: $limit) { seq } } }`, { limit: -1 }, "limit"],
        ["run events negative afterSeq", `query ($afterSeq: Int!) { run(id: "${runId}") { events(afterSeq: $afterSeq) { seq } } }`, { afterSeq: -1 }, "afterSeq"],
      ];
      for (const [name, query, variables, argument] of cases) {
        const result = await api.admin.execute(query, variables);
        expect({ name, code: result.errors[0]?.extensions?.["code"], path: result.errors[0]?.extensions?.["path"] }).toEqual({
          name,
          code: "BAD_USER_INPUT",
          path: [argument],
        });
      }
    });
  },
  { modes: ["embedded"] },
);
