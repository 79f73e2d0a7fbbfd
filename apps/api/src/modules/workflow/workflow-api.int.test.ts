import { createNewWorkflow, stringifyWorkflow } from "@weft/engine";
import { afterEach, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase, type TestDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";
import { arrows } from "../../testing/workflows.js";
import { CreateApiKey } from "../../testing/operations.js";

/**
 * Workflows as a whole through the real server (HTTP, API keys), on both databases: create, list,
 * read, update, delete, duplicate, validate, import and export, and bad input leaving the database
 * exactly as it was.
 */

export const WorkflowFields = graphql(`
  fragment WorkflowFields on Workflow {
    id
    name
    description
    version
    outputFormat
    knowledgeBase
    intensity
    prompts { generation ensemble validation }
    nodes { id type content provider model params prompt position { x y } }
    edges { id source target order }
  }
`);

const CreateWorkflow = graphql(`
  mutation WfCreate($input: CreateWorkflowInput!) {
    createWorkflow(input: $input) { workflow { ...WorkflowFields } errors { code message path } }
  }
`);

const UpdateWorkflow = graphql(`
  mutation WfUpdate($id: ID!, $input: UpdateWorkflowInput!) {
    updateWorkflow(id: $id, input: $input) { workflow { ...WorkflowFields } errors { code message path } }
  }
`);

const DeleteWorkflow = graphql(`
  mutation WfDelete($id: ID!) { deleteWorkflow(id: $id) { deletedWorkflowId errors { code message } } }
`);

const DuplicateWorkflow = graphql(`
  mutation WfDuplicate($id: ID!, $name: String) {
    duplicateWorkflow(id: $id, name: $name) { workflow { ...WorkflowFields } errors { code message path } }
  }
`);

const ImportWorkflow = graphql(`
  mutation WfImport($document: JSON!) {
    importWorkflow(document: $document) { workflow { ...WorkflowFields } errors { code message path nodeIds edgeIds } }
  }
`);

const ExportWorkflow = graphql(`
  query WfExport($id: ID!) { exportWorkflow(id: $id) }
`);

const GetWorkflow = graphql(`
  query WfGet($id: ID!) { workflow(id: $id) { ...WorkflowFields activeRunId } }
`);

const ListWorkflows = graphql(`
  query WfList($first: Int, $after: String, $search: String) {
    workflows(first: $first, after: $after, search: $search) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { cursor node { id name nodes { id } } }
    }
  }
`);

const ValidateWorkflow = graphql(`
  query WfValidate($id: ID!) { validateWorkflow(id: $id) { valid violations { code message nodeIds edgeIds } } }
`);

const Catalogue = graphql(`
  query WfCatalogue {
    nodeTypes { type label component profile accepts feeds usesModel inDegree { min max } outDegree { min max } count { min max } }
    models { id label models { id label testOnly } }
  }
`);

/** Every workflow row, node and edge, to prove a refused request changed nothing. */
async function snapshot(db: TestDatabase) {
  const [workflows, nodes, edges] = await Promise.all([
    db.prisma.workflow.findMany({ orderBy: { id: "asc" } }),
    db.prisma.workflowNode.findMany({ orderBy: [{ workflowId: "asc" }, { key: "asc" }] }),
    db.prisma.workflowEdge.findMany({ orderBy: [{ workflowId: "asc" }, { key: "asc" }] }),
  ]);
  return { workflows, nodes, edges };
}

describeEachDatabase("workflows through the API", (suite) => {
  let api: TestApp | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });
  const start = async () => (api = await startTestApp(suite.db()));

  async function create(input: { name: string } & Record<string, unknown>) {
    const { createWorkflow } = await api!.admin.request(CreateWorkflow, { input });
    expect(createWorkflow.errors).toEqual([]);
    return createWorkflow.workflow!;
  }

  test("a new workflow has one input connected to one output and default prompts with the three placeholders", async () => {
    await start();
    const workflow = await create({ name: "Review", description: "two passes", intensity: "HIGH" });
    expect(workflow.nodes.map((node) => [node.id, node.type])).toEqual([["input-1", "input"], ["output-1", "output"]]);
    expect(workflow.edges).toEqual([{ id: "e1", source: "input-1", target: "output-1", order: 1 }]);
    expect(workflow).toMatchObject({ name: "Review", description: "two passes", intensity: "HIGH", version: 1, knowledgeBase: null });
    for (const prompt of Object.values(workflow.prompts).filter((value) => typeof value === "string")) {
      expect(prompt).toMatch(/\{input_data\}[\s\S]*\{context\}[\s\S]*\{output_format\}/);
    }
    const { validateWorkflow } = await api!.admin.request(ValidateWorkflow, { id: workflow.id });
    expect(validateWorkflow).toEqual({ valid: true, violations: [] });
  });

  test("lists workflows most recently updated first, page by page, and filters by name", async () => {
    await start();
    const first = await create({ name: "Alpha summary" });
    await create({ name: "Beta" });
    await create({ name: "Gamma summary" });
    await api!.admin.request(UpdateWorkflow, { id: first.id, input: { description: "touched" } });

    const page1 = (await api!.admin.request(ListWorkflows, { first: 2 })).workflows;
    expect(page1.totalCount).toBe(3);
    expect(page1.edges.map((edge) => edge.node.name)).toEqual(["Alpha summary", "Gamma summary"]);
    expect(page1.edges[0]!.node.nodes).toHaveLength(2);
    const page2 = (await api!.admin.request(ListWorkflows, { first: 2, after: page1.pageInfo.endCursor })).workflows;
    expect(page2.edges.map((edge) => edge.node.name)).toEqual(["Beta"]);
    expect(page2.pageInfo.hasNextPage).toBe(false);

    const found = (await api!.admin.request(ListWorkflows, { search: "SUMMARY" })).workflows;
    expect(found.edges.map((edge) => edge.node.name).sort()).toEqual(["Alpha summary", "Gamma summary"]);
    const tooMany = await api!.admin.execute(ListWorkflows, { first: 101 });
    expect(tooMany.errors[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });

  test("updates settings, merging prompts per type, clearing the knowledge base with null, and bumping the version", async () => {
    await start();
    const workflow = await create({ name: "Settings", knowledgeBase: "handbook" });
    const { updateWorkflow } = await api!.admin.request(UpdateWorkflow, {
      id: workflow.id,
      input: { name: "Renamed", prompts: { ensemble: "merge {input_data}" }, outputFormat: "plain", intensity: "MEDIUM" },
    });
    expect(updateWorkflow.errors).toEqual([]);
    expect(updateWorkflow.workflow).toMatchObject({ name: "Renamed", outputFormat: "plain", intensity: "MEDIUM", knowledgeBase: "handbook", version: 2 });
    expect(updateWorkflow.workflow!.prompts.ensemble).toBe("merge {input_data}");
    expect(updateWorkflow.workflow!.prompts.generation).toBe(workflow.prompts.generation);
    const cleared = await api!.admin.request(UpdateWorkflow, { id: workflow.id, input: { knowledgeBase: null } });
    expect(cleared.updateWorkflow.workflow).toMatchObject({ knowledgeBase: null, version: 3 });
  });

  test("refuses bad input for create, update, duplicate and import and leaves the database unchanged", async () => {
    await start();
    const workflow = await create({ name: "Keep me" });
    const before = await snapshot(suite.db());
    const cases = [
      { op: CreateWorkflow, vars: { input: { name: "   " } }, code: "VALIDATION_FAILED", path: ["input", "name"] },
      { op: CreateWorkflow, vars: { input: { name: "x".repeat(201) } }, code: "LIMIT_EXCEEDED", path: ["input", "name"] },
      { op: CreateWorkflow, vars: { input: { name: "ok", prompts: { generation: "p".repeat(50_001) } } }, code: "LIMIT_EXCEEDED", path: ["input", "prompts", "generation"] },
      { op: UpdateWorkflow, vars: { id: workflow.id, input: { name: null } }, code: "VALIDATION_FAILED", path: ["input", "name"] },
      { op: UpdateWorkflow, vars: { id: workflow.id, input: { name: "" } }, code: "VALIDATION_FAILED", path: ["input", "name"] },
      { op: UpdateWorkflow, vars: { id: workflow.id, input: { name: " \t " } }, code: "VALIDATION_FAILED", path: ["input", "name"] },
      { op: DuplicateWorkflow, vars: { id: workflow.id, name: "  " }, code: "VALIDATION_FAILED", path: ["name"] },
      { op: UpdateWorkflow, vars: { id: workflow.id, input: { description: "d".repeat(10_001) } }, code: "LIMIT_EXCEEDED", path: ["input", "description"] },
      { op: UpdateWorkflow, vars: { id: "00000000-0000-4000-8000-000000000000", input: { name: "x" } }, code: "NOT_FOUND", path: ["id"] },
      { op: DuplicateWorkflow, vars: { id: workflow.id, name: "n".repeat(201) }, code: "LIMIT_EXCEEDED", path: ["name"] },
      { op: DuplicateWorkflow, vars: { id: "not-a-workflow" }, code: "NOT_FOUND", path: ["id"] },
      { op: DeleteWorkflow, vars: { id: "00000000-0000-4000-8000-000000000000" }, code: "NOT_FOUND", path: null },
      { op: ImportWorkflow, vars: { document: "{ not json" }, code: "DOCUMENT_INVALID", path: ["document"] },
      { op: ImportWorkflow, vars: { document: stringifyWorkflow(createNewWorkflow("   ")) }, code: "DOCUMENT_INVALID", path: ["document", "name"] },
      { op: ImportWorkflow, vars: { document: stringifyWorkflow(createNewWorkflow("")) }, code: "DOCUMENT_INVALID", path: ["document", "name"] },
    ] as const;
    for (const { op, vars, code, path } of cases) {
      const data = (await api!.admin.request(op as never, vars as never)) as Record<string, { errors: { code: string; path?: string[] | null }[] }>;
      const [payload] = Object.values(data);
      expect(payload!.errors.map((error) => error.code), JSON.stringify(vars).slice(0, 80)).toEqual([code]);
      if (path) expect(payload!.errors[0]!.path).toEqual(path);
    }
    expect(await snapshot(suite.db())).toEqual(before);
  });

  test("deletes a workflow, and a second delete reports NOT_FOUND", async () => {
    await start();
    const workflow = await create({ name: "Short-lived" });
    expect((await api!.admin.request(DeleteWorkflow, { id: workflow.id })).deleteWorkflow).toEqual({ deletedWorkflowId: workflow.id, errors: [] });
    expect((await api!.admin.request(GetWorkflow, { id: workflow.id })).workflow).toBeNull();
    const again = await api!.admin.request(DeleteWorkflow, { id: workflow.id });
    expect(again.deleteWorkflow.errors.map((error) => error.code)).toEqual(["NOT_FOUND"]);
  });

  test("duplicates settings, nodes and edges in their order under the name '<name> (copy)'", async () => {
    // in ──▶ g1 ──▶ e1 ──▶ out
    //  └───▶ g2 ──────┘        (e1 joins g1 then g2: edge order matters)
    await start();
    const document = JSON.stringify({ format: "weft.workflow/v1", ...arrows(["in->g1->e1", "in->g2->e1", "e1->out"], { name: "Fan" }) });
    const imported = (await api!.admin.request(ImportWorkflow, { document })).importWorkflow.workflow!;
    const { duplicateWorkflow } = await api!.admin.request(DuplicateWorkflow, { id: imported.id });
    const copy = duplicateWorkflow.workflow!;
    expect(copy.id).not.toBe(imported.id);
    expect(copy.name).toBe("Fan (copy)");
    expect(copy.nodes).toEqual(imported.nodes);
    expect(copy.edges).toEqual(imported.edges);
    expect(copy.prompts).toEqual(imported.prompts);
    const named = await api!.admin.request(DuplicateWorkflow, { id: imported.id, name: "Fan v2" });
    expect(named.duplicateWorkflow.workflow!.name).toBe("Fan v2");
  });

  test("exports a weft.workflow/v1 document that imports back to the same document", async () => {
    await start();
    const workflow = await create({ name: "Round trip", knowledgeBase: "docs", intensity: "LOW" });
    const exported = (await api!.admin.request(ExportWorkflow, { id: workflow.id })).exportWorkflow!;
    expect(JSON.parse(exported)).toMatchObject({ format: "weft.workflow/v1", name: "Round trip", knowledgeBase: "docs" });
    const asText = (await api!.admin.request(ImportWorkflow, { document: exported })).importWorkflow;
    expect(asText.errors).toEqual([]);
    const asObject = (await api!.admin.request(ImportWorkflow, { document: JSON.parse(exported) })).importWorkflow;
    expect(asObject.errors).toEqual([]);
    for (const copy of [asText.workflow!, asObject.workflow!]) {
      expect((await api!.admin.request(ExportWorkflow, { id: copy.id })).exportWorkflow).toBe(exported);
    }
    expect((await api!.admin.request(ExportWorkflow, { id: "00000000-0000-4000-8000-000000000000" })).exportWorkflow).toBeNull();
  });

  test("refuses a malformed document with every problem located by its path", async () => {
    await start();
    const document = {
      format: "weft.workflow/v1",
      name: "Broken",
      prompts: {},
      outputFormat: "",
      nodes: [{ id: "in", type: "input", colour: "red" }, { id: "in", type: "output" }],
      edges: [{ source: "in", target: "nowhere" }],
    };
    const { importWorkflow } = await api!.admin.request(ImportWorkflow, { document });
    expect(importWorkflow.workflow).toBeNull();
    expect(importWorkflow.errors.every((error) => error.code === "DOCUMENT_INVALID")).toBe(true);
    expect(importWorkflow.errors.map((error) => error.path)).toContainEqual(["document", "nodes[0].colour"]);
    const wrongFormat = (await api!.admin.request(ImportWorkflow, { document: { format: "other/v9" } })).importWorkflow;
    expect(wrongFormat.errors).toHaveLength(1);
    expect(wrongFormat.errors[0]!.message).toContain("UNSUPPORTED_FORMAT");
    expect(await suite.db().prisma.workflow.count()).toBe(0);
  });

  test("refuses to import a graph that breaks connection rules, listing every violation", async () => {
    // in ──▶ out ◀── g1 ◀── in        (MULTIPLE_PRE on out)
    //        g2 (no pre, no post, unknown model)
    await start();
    const workflow = arrows(["in->out", "in->g1->out"]);
    workflow.nodes.push({ id: "g2", type: "generation", provider: "offline", model: "gpt-imaginary" });
    const { importWorkflow } = await api!.admin.request(ImportWorkflow, { document: { format: "weft.workflow/v1", ...workflow } });
    const codes = importWorkflow.errors.map((error) => error.code).sort();
    expect(codes).toEqual(["MISSING_POST", "MISSING_PRE", "MODEL_UNAVAILABLE", "MULTIPLE_PRE"]);
    expect(importWorkflow.errors.find((error) => error.code === "MULTIPLE_PRE")!.nodeIds).toContain("out");
    expect(await suite.db().prisma.workflow.count()).toBe(0);
  });

  test("validateWorkflow lists every violation of a stored graph, run-time rules and unavailable models included", async () => {
    // in ──▶ g1 (model "nope")      g1 has no post-node; out has no pre-node
    await start();
    const workflow = await create({ name: "Unfinished" });
    const db = suite.db().prisma;
    await db.workflowEdge.deleteMany({ where: { workflowId: workflow.id } });
    await db.workflowNode.create({ data: { workflowId: workflow.id, key: "g1", type: "generation", provider: "offline", model: "nope" } });
    await db.workflowEdge.create({ data: { workflowId: workflow.id, key: "e2", source: "input-1", target: "g1", position: 2 } });
    const { validateWorkflow } = await api!.admin.request(ValidateWorkflow, { id: workflow.id });
    expect(validateWorkflow.valid).toBe(false);
    const byCode = Object.fromEntries(validateWorkflow.violations.map((violation) => [violation.code, violation.nodeIds]));
    expect(byCode).toEqual({ MISSING_POST: ["g1"], MISSING_PRE: ["output-1"], MODEL_UNAVAILABLE: ["g1"] });
    const missing = await api!.admin.execute(ValidateWorkflow, { id: "00000000-0000-4000-8000-000000000000" });
    expect(missing.errors[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  test("offers the node-type catalogue and the configured models", async () => {
    await start();
    const { nodeTypes, models } = await api!.admin.request(Catalogue);
    expect(nodeTypes.filter((type) => type.profile === "seed").map((type) => type.type)).toEqual(["input", "generation", "ensemble", "validation", "output"]);
    expect(nodeTypes.slice(0, 5).every((type) => type.profile === "seed")).toBe(true);
    expect(nodeTypes.find((type) => type.type === "ensemble")).toMatchObject({ component: "ModelNode", inDegree: { min: 1, max: null }, usesModel: true });
    expect(nodeTypes.find((type) => type.type === "output")!.count).toEqual({ min: 1, max: 1 });
    expect(models.find((provider) => provider.id === "offline")!.models.map((model) => model.id)).toContain("echo");
  });

  test("needs the read scope to query and the write scope to change", async () => {
    await start();
    const anonymous = await api!.anonymous.execute(ListWorkflows, {});
    expect(anonymous.errors[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    const denied = await api!.anonymous.execute(CreateWorkflow, { input: { name: "x" } });
    expect(denied.errors.length).toBeGreaterThan(0);
    const { createApiKey } = await api!.admin.request(CreateApiKey, { input: { name: "viewer", scopes: ["read"] } });
    const reader = api!.admin.withKey(createApiKey.key!);
    expect((await reader.request(ListWorkflows, {})).workflows.totalCount).toBe(0);
    const forbidden = await reader.execute(CreateWorkflow, { input: { name: "x" } });
    expect(forbidden.errors[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(await suite.db().prisma.workflow.count()).toBe(0);
  });
});
