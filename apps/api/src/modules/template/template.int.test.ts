import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { describeEachDatabase } from "../../testing/database.js";
import { startTestApp, type TestApp } from "../../testing/app.js";
import { graphql } from "../../testing/gql/index.js";
import { RunWorkflow } from "../../testing/operations.js";
import { TemplateService } from "./template.service.js";
import { demoWorkflow } from "../../app/demo-workflow.js";

/**
 * Templates over GraphQL on both databases: the list, a new workflow from the demo that runs at once,
 * an unknown template, and a template's knowledge base made from its shipped Markdown files.
 */

const Templates = graphql(`
  query TemplateList { workflowTemplates { id name description format nodeCount knowledgeBases } }
`);

const FromTemplate = graphql(`
  mutation TemplateCreate($id: ID!) {
    createWorkflowFromTemplate(templateId: $id) { workflow { id name nodes { id } } errors { code message path } }
  }
`);

const KnowledgeBaseByName = graphql(`
  query TemplateKnowledgeBase($name: String!) { knowledgeBase(name: $name) { name documentCount chunkCount documents { edges { node { title status } } } } }
`);

let examples: string;

beforeAll(() => {
  //   question ──▶ draft (echo) ──▶ answer        knowledgeBase: "weaving" (examples/knowledge-bases/weaving/*.md)
  examples = mkdtempSync(path.join(tmpdir(), "weft-templates-"));
  const kb = path.join(examples, "knowledge-bases", "weaving");
  mkdirSync(kb, { recursive: true });
  writeFileSync(path.join(kb, "twill.md"), "# Twill\n\nTwill weaving makes diagonal ribs.");
  writeFileSync(path.join(kb, "satin.md"), "# Satin\n\nSatin floats the weft over several warp threads.");
});
afterAll(() => rmSync(examples, { recursive: true, force: true }));

describeEachDatabase("workflow templates", (suite) => {
  let api: TestApp | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  test("lists the demo and the four seed pipelines, each with a line on what it does", async () => {
    api = await startTestApp(suite.db());
    const { workflowTemplates } = await api.admin.request(Templates);
    expect(workflowTemplates.map((template) => template.id)).toEqual(["demo", "seed-001-adaptive-rag", "seed-002-query-flow", "seed-003-parallel-self-rag", "seed-004-codeweaver"]);
    expect(workflowTemplates.every((template) => template.description.length > 20 && template.nodeCount > 0)).toBe(true);
    expect(workflowTemplates.find((template) => template.id === "demo")).toMatchObject({ format: "weft.workflow/v1", knowledgeBases: [] });
    expect(workflowTemplates.find((template) => template.id === "seed-002-query-flow")).toMatchObject({ format: "weft.workflow/v2", knowledgeBases: ["rag-handbook"] });
  });

  test("makes a new workflow from the demo that runs at once, and refuses an unknown template", async () => {
    api = await startTestApp(suite.db());
    const { createWorkflowFromTemplate } = await api.admin.request(FromTemplate, { id: "demo" });
    expect(createWorkflowFromTemplate.errors).toEqual([]);
    expect(createWorkflowFromTemplate.workflow?.nodes.map((node) => node.id)).toEqual(["question", "notes", "draft", "check", "merge", "answer"]);
    const { runWorkflow } = await api.admin.request(RunWorkflow, { workflowId: createWorkflowFromTemplate.workflow!.id, input: { draft: true } });
    expect(runWorkflow.errors).toEqual([]);

    const unknown = await api.admin.request(FromTemplate, { id: "seed-999" });
    expect(unknown.createWorkflowFromTemplate.errors).toEqual([{ code: "NOT_FOUND", message: 'template "seed-999" does not exist', path: ["templateId"] }]);
  });

});

// Knowledge bases need a vector store: pgvector in the embedded database (the server suite's PostgreSQL
// has none, and knowledge bases on Weaviate are covered by the knowledge-base module's own tests).
describeEachDatabase(
  "workflow templates with a knowledge base",
  (suite) => {
    let api: TestApp | undefined;
    afterEach(async () => {
      await api?.close();
      api = undefined;
    });

    test("makes the knowledge base a template searches from its shipped files, once", async () => {
      api = await startTestApp(suite.db());
      const templates = new TemplateService({ ...api.app.services, demo: () => ({ ...demoWorkflow(), knowledgeBase: "weaving" }), logger: api.app.logger, examplesDir: examples });
      const first = await templates.create("demo");
      expect(first.ok).toBe(true);
      const { knowledgeBase } = await api.admin.request(KnowledgeBaseByName, { name: "weaving" });
      expect(knowledgeBase?.documentCount).toBe(2);
      expect(knowledgeBase?.chunkCount).toBeGreaterThanOrEqual(2);
      expect(knowledgeBase?.documents.edges.map((edge) => [edge.node.title, edge.node.status])).toEqual(
        expect.arrayContaining([
          ["satin", "READY"],
          ["twill", "READY"],
        ]),
      );
      // A second workflow from the same template uses the knowledge base that is there.
      expect((await templates.create("demo")).ok).toBe(true);
      expect((await api.admin.request(KnowledgeBaseByName, { name: "weaving" })).knowledgeBase?.documentCount).toBe(2);
    });
  },
  { modes: ["embedded"] },
);
