import { afterEach, expect, test } from "vitest";
import { describeEachDatabase } from "../../testing/database.js";
import { seedWorkflow, startTestApp, type TestApp } from "../../testing/app.js";
import type { TestClient } from "../../testing/graphql-client.js";
import { CreateApiKey, RunEvents, RunWorkflow } from "../../testing/operations.js";
import { arrows } from "../../testing/workflows.js";

const codeOf = (result: { errors: { extensions?: Record<string, unknown> }[] }) => result.errors[0]?.extensions?.["code"];

const BIG = 200_000;

/**
 * in1 ──▶ out1   in2 ──▶ out2   in3 ──▶ out3   in4 ──▶ out4
 * (each input holds 200,000 characters: the workflow of the reported attack)
 */
function bigWorkflow() {
  const content = (n: number) => String(n).repeat(BIG);
  return arrows(["in1->out1", "in2->out2", "in3->out3", "in4->out4"], {
    nodes: { in1: { content: content(1) }, in2: { content: content(2) }, in3: { content: content(3) }, in4: { content: content(4) } },
  });
}

const aliases = (count: number, field: (index: number) => string) =>
  `{ ${Array.from({ length: count }, (_, index) => `a${index}: ${field(index)}`).join(" ")} }`;

/** What the admin UI's editor asks for when it opens a workflow (apps/web features/editor). */
const EDITOR_LOAD = `
  query EditorWorkflow($id: ID!) {
    workflow(id: $id) {
      id name description version prompts { generation ensemble validation } outputFormat knowledgeBase intensity activeRunId
      nodes { id type content provider model params prompt position { x y } }
      edges { id source target order }
    }
    models { id label models { id label testOnly } }
    knowledgeBases(first: 100) { edges { node { id name } } }
  }`;

/** What the run-history pages ask for: a page of runs, then one run with everything (apps/web features/runs). */
const RUN_LIST = `
  query Runs($first: Int) {
    runs(first: $first) {
      edges { cursor node { id workflowId workflowName status createdAt startedAt finishedAt durationMs totalTokens } }
      pageInfo { hasNextPage endCursor }
      totalCount
    }
    workflows(first: 100) { edges { node { id name } } }
  }`;
const RUN_DETAIL = `
  query RunDetail($id: ID!) {
    run(id: $id) {
      id workflowId status snapshot result error { code message } promptTokens completionTokens totalTokens lastSeq
      createdAt startedAt finishedAt durationMs
      nodeRuns {
        nodeId nodeType status inputs renderedPrompt context store rawReply description output error { code message }
        provider model promptTokens completionTokens totalTokens retries startedAt finishedAt durationMs
      }
      events { seq type at nodeId payload }
    }
  }`;

describeEachDatabase(
  "query cost and response size",
  (suite) => {
    let api: TestApp | undefined;
    afterEach(async () => {
      await api?.close();
      api = undefined;
    });

    async function readOnlyClient(): Promise<TestClient> {
      const { createApiKey } = await api!.admin.request(CreateApiKey, { input: { name: "reader", scopes: ["read"] } });
      return api!.admin.withKey(createApiKey.key!);
    }

    test("666 aliases of a workflow's node contents from a read-only key are refused before anything runs", async () => {
      api = await startTestApp(suite.db());
      const id = await seedWorkflow(suite.db(), bigWorkflow());
      const reader = await readOnlyClient();

      const attack = await reader.execute(aliases(666, () => `workflow(id: "${id}") { nodes { content } }`));
      expect([attack.status, codeOf(attack)]).toEqual([400, "TOO_MANY_ALIASES"]);
      expect(attack.errors[0]?.extensions).toMatchObject({ field: "Query.workflow", count: 666, maxAliases: 10 });
      expect(attack.data).toBeNull();

      // Within the alias cap, the cost still counts long texts and whole documents by the page size.
      const costly = await reader.execute(`{ runs(first: 100) { edges { node { snapshot } } } }`);
      expect([costly.status, codeOf(costly)]).toEqual([400, "QUERY_TOO_COMPLEX"]);
      const exports = await reader.execute(aliases(100, () => `exportWorkflow(id: "${id}")`));
      expect(codeOf(exports)).toBe("TOO_MANY_ALIASES");
      // Hidden in fragments, aliases count the same.
      const spread = await reader.execute(
        `{ ...A ...B } fragment A on Query { a: run(id: "x") { id } b: run(id: "y") { id } ...C }
         fragment B on Query { ...C ...C } fragment C on Query { ${aliases(4, (k) => `run(id: "${k}") { id }`).slice(1, -1)} }`,
      );
      expect(spread.errors[0]?.extensions).toMatchObject({ code: "TOO_MANY_ALIASES", field: "Query.run", count: 14 });
    });

    test("the admin UI's editor load and run-history loads pass the default limits", async () => {
      api = await startTestApp(suite.db());
      const workflowId = await seedWorkflow(suite.db(), arrows(["in->g1->v1->e1->out", "in2->e1"]));
      const editor = await api.admin.execute(EDITOR_LOAD, { id: workflowId });
      expect(editor.errors).toEqual([]);
      expect((editor.data as { workflow: { nodes: unknown[] } }).workflow.nodes).toHaveLength(6);

      const { runWorkflow } = await api.admin.request(RunWorkflow, { workflowId });
      const ws = api.admin.ws();
      await api.admin.subscribe(ws, RunEvents, { runId: runWorkflow.run!.id, afterSeq: 0 }).ended;
      await ws.dispose();
      const list = await api.admin.execute(RUN_LIST, { first: 20 });
      expect(list.errors).toEqual([]);
      const detail = await api.admin.execute(RUN_DETAIL, { id: runWorkflow.run!.id });
      expect(detail.errors).toEqual([]);
      const run = (detail.data as { run: { status: string; nodeRuns: unknown[]; events: unknown[] } }).run;
      expect([run.status, run.nodeRuns.length, run.events.length > 10]).toEqual(["COMPLETED", 6, true]);
    });

    test("an answer over WEFT_MAX_RESPONSE_BYTES is replaced by one RESPONSE_TOO_LARGE error, over HTTP and WebSocket", async () => {
      api = await startTestApp(suite.db(), { env: { WEFT_MAX_RESPONSE_BYTES: String(3 * BIG) } });
      const id = await seedWorkflow(suite.db(), bigWorkflow());
      const reader = await readOnlyClient();
      const query = `query Big($id: ID!) { workflow(id: $id) { name nodes { id content } } }`;

      const tooBig = await reader.execute(query, { id });
      expect([tooBig.status, codeOf(tooBig)]).toEqual([400, "RESPONSE_TOO_LARGE"]);
      expect(tooBig.errors).toHaveLength(1);
      expect(tooBig.errors[0]?.extensions).toMatchObject({ maxResponseBytes: 3 * BIG, requestId: tooBig.headers.get("x-request-id") });
      expect(tooBig.data).toBeNull();
      // Three of the four texts fit.
      const fits = await reader.execute(`query Fits($id: ID!) { workflow(id: $id) { nodes { id } } exportWorkflow(id: "none") }`, { id });
      expect(fits.errors).toEqual([]);

      const ws = reader.ws();
      const overSocket = reader.subscribe(ws, query, { id });
      await overSocket.ended;
      await ws.dispose();
      expect(overSocket.errors.map((error) => error.extensions?.["code"])).toEqual(["RESPONSE_TOO_LARGE"]);
      expect(overSocket.items).toEqual([]);
    });
  },
  { modes: ["embedded"] },
);
