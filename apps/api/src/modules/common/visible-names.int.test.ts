import { createNewWorkflow, stringifyWorkflow } from "@weft/engine";
import { expect, test } from "vitest";
import { startTestApp } from "../../testing/app.js";
import { describeEachDatabase, type TestDatabase } from "../../testing/database.js";

/** Names that show nothing (ISSUE 30 item 7), alone and mixed with spaces. */
const INVISIBLE = ["\u200B", "\u2800", "\u3164", "\u00AD", "\u200B\u2800 \u3164\u00AD", "\uFEFF\u2060\u115F"];

type Payload = { errors: { code: string; path: string[] | null }[] };

async function counts(db: TestDatabase) {
  const [workflows, keys, knowledgeBases, documents] = await Promise.all([
    db.prisma.workflow.count(),
    db.prisma.apiKey.count(),
    db.prisma.knowledgeBase.count(),
    db.prisma.document.count(),
  ]);
  return { workflows, keys, knowledgeBases, documents };
}

describeEachDatabase("names need a visible character", (suite) => {
  test("every name made only of format and blank code points is refused wherever a name is given, and nothing is stored", async () => {
    const api = await startTestApp(suite.db());
    try {
      const mutate = async (query: string, variables: Record<string, unknown>): Promise<Payload> => {
        const result = await api.admin.execute(query, variables);
        expect(result.errors).toEqual([]);
        return Object.values(result.data as Record<string, Payload>)[0]!;
      };
      const created = await api.admin.execute(`mutation { createWorkflow(input: { name: "Kept" }) { workflow { id } } }`);
      const workflowId = (created.data as { createWorkflow: { workflow: { id: string } } }).createWorkflow.workflow.id;
      // PostgreSQL here has no pgvector (Debian's has none): documents are tried on the embedded database.
      const kb = await api.admin.execute(`mutation { createKnowledgeBase(input: { name: "kb" }) { knowledgeBase { id } } }`);
      const knowledgeBaseId = (kb.data as { createKnowledgeBase: { knowledgeBase: { id: string } | null } } | null)?.createKnowledgeBase.knowledgeBase?.id ?? null;
      if (suite.mode === "embedded") expect(knowledgeBaseId).not.toBeNull();
      const before = await counts(suite.db());

      const cases: { query: string; variables: (name: string) => Record<string, unknown>; code: string; path: string[] }[] = [
        { query: `mutation ($n: String!) { createWorkflow(input: { name: $n }) { errors { code path } } }`, variables: (n) => ({ n }), code: "VALIDATION_FAILED", path: ["input", "name"] },
        { query: `mutation ($id: ID!, $n: String!) { updateWorkflow(id: $id, input: { name: $n }) { errors { code path } } }`, variables: (n) => ({ id: workflowId, n }), code: "VALIDATION_FAILED", path: ["input", "name"] },
        { query: `mutation ($id: ID!, $n: String) { duplicateWorkflow(id: $id, name: $n) { errors { code path } } }`, variables: (n) => ({ id: workflowId, n }), code: "VALIDATION_FAILED", path: ["name"] },
        { query: `mutation ($d: JSON!) { importWorkflow(document: $d) { errors { code path } } }`, variables: (n) => ({ d: stringifyWorkflow(createNewWorkflow(n)) }), code: "DOCUMENT_INVALID", path: ["document", "name"] },
        {
          query: `mutation ($d: JSON!) { importWorkflow(document: $d) { errors { code path } } }`,
          variables: (n) => ({ d: { format: "weft.workflow/v2", name: n, nodes: [{ id: "in", type: "input" }, { id: "out", type: "output" }], edges: [{ source: "in", target: "out" }] } }),
          code: "DOCUMENT_INVALID",
          path: ["document", "name"],
        },
        { query: `mutation ($n: String!) { createApiKey(input: { name: $n, scopes: ["read"] }) { errors { code path } } }`, variables: (n) => ({ n }), code: "VALIDATION_FAILED", path: ["input", "name"] },
        { query: `mutation ($n: String!) { createKnowledgeBase(input: { name: $n }) { errors { code path } } }`, variables: (n) => ({ n }), code: "VALIDATION_FAILED", path: ["input", "name"] },
        { query: `mutation ($n: String!) { clearSemanticCache(scope: { namespace: $n }) { errors { code path } } }`, variables: (n) => ({ n }), code: "VALIDATION_FAILED", path: ["scope", "namespace"] },
      ];
      if (knowledgeBaseId) {
        cases.push({
          query: `mutation ($kb: ID!, $n: String!) { addDocuments(knowledgeBaseId: $kb, documents: [{ title: $n, content: "text" }]) { errors { code path } } }`,
          variables: (n) => ({ kb: knowledgeBaseId, n }),
          code: "VALIDATION_FAILED",
          path: ["documents", "0"],
        });
      }
      const refused: string[] = [];
      for (const name of INVISIBLE) {
        for (const item of cases) {
          const payload = await mutate(item.query, item.variables(name));
          const [error] = payload.errors;
          if (payload.errors.length !== 1 || error!.code !== item.code || JSON.stringify(error!.path) !== JSON.stringify(item.path)) {
            refused.push(`${JSON.stringify(name)} ${item.query.slice(0, 50)}: ${JSON.stringify(payload.errors)}`);
          }
        }
      }
      expect(refused).toEqual([]);
      expect(await counts(suite.db())).toEqual(before);
      const stored = await suite.db().prisma.workflow.findUniqueOrThrow({ where: { id: workflowId }, select: { name: true } });
      expect(stored.name).toBe("Kept");

      // One visible character among the blanks is a name.
      const visible = await mutate(`mutation ($n: String!) { createWorkflow(input: { name: $n }) { errors { code } } }`, { n: "\u200B리뷰\u00AD" });
      const key = await mutate(`mutation ($n: String!) { createApiKey(input: { name: $n, scopes: ["read"] }) { errors { code } } }`, { n: "\u2800ci" });
      expect([visible.errors, key.errors]).toEqual([[], []]);
    } finally {
      await api.close();
    }
  });
});
