import { readFile } from "node:fs/promises";
import { parseWorkflowValue, builtInRegistry, serializeWorkflow, type Workflow } from "@weft/engine";
import { afterEach, beforeEach, expect, test } from "vitest";
import { seedWorkflow, startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";

/**
 * weft.workflow/v2 graphs through the real server, on both databases: import and read back (node
 * configs, ports, loop edges, loops, state, limits), export (v2, or v1 when only v1 features are used),
 * duplicate, publish, the node-type catalogue, and the new rule codes with their field, position and
 * body path.
 */

export const PipelineFields = graphql(`
  fragment PipelineFields on Workflow {
    id
    version
    loops { id max exit }
    state { name reducer key scope }
    limits { maxInvocations }
    nodes { id type provider model params prompt config ports }
    edges { id source sourcePort target loop order }
  }
`);

const ImportPipeline = graphql(`
  mutation PlImport($document: JSON!, $publish: Boolean) {
    importWorkflow(document: $document, publish: $publish) {
      workflow { ...PipelineFields }
      errors { code message path field position bodyPath nodeIds edgeIds }
    }
  }
`);

const GetPipeline = graphql(`
  query PlGet($id: ID!) { workflow(id: $id) { ...PipelineFields } }
`);

const ExportPipeline = graphql(`
  query PlExport($id: ID!, $version: Int) { exportWorkflow(id: $id, version: $version) }
`);

const DuplicatePipeline = graphql(`
  mutation PlDuplicate($id: ID!) { duplicateWorkflow(id: $id) { workflow { ...PipelineFields } errors { code message } } }
`);

const PipelineVersion = graphql(`
  query PlVersion($workflowId: ID!, $number: Int!) {
    workflowVersion(workflowId: $workflowId, number: $number) {
      number
      loops { id max exit }
      state { name reducer scope }
      limits { maxInvocations }
      nodes { id config ports }
      edges { id sourcePort loop }
    }
  }
`);

const ValidatePipeline = graphql(`
  query PlValidate($id: ID!) {
    validateWorkflow(id: $id) { valid violations { code message nodeIds edgeIds field position bodyPath path } }
  }
`);

const NodeTypeCatalogue = graphql(`
  query PlNodeTypes {
    nodeTypes {
      type
      profile
      component
      router
      composite
      ports
      portsField
      attributes
      configSchema
      defaultConfig
      count { max }
      fields { name kind required default enumValues minimum maximum }
    }
  }
`);

const CreateBlankPipeline = graphql(`
  mutation PlCreateBlank($name: String!) { createWorkflow(input: { name: $name }) { workflow { id } } }
`);

const AddDefaultNode = graphql(`
  mutation PlAddDefaultNode($workflowId: ID!, $input: AddNodeInput!) {
    addNode(workflowId: $workflowId, input: $input) { node { id type config } errors { code message } }
  }
`);

const RETRY_LOOP = new URL("../../../../../examples/retry-loop.json", import.meta.url);

async function retryLoopDocument(): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(RETRY_LOOP, "utf8")) as Record<string, unknown>;
}

/** The document as the engine reads and writes it (what an export of the stored workflow must equal). */
function normalised(document: unknown): Record<string, unknown> {
  const parsed = parseWorkflowValue(document, { registry: builtInRegistry });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return serializeWorkflow(parsed.workflow) as unknown as Record<string, unknown>;
}

describeEachDatabase("weft.workflow/v2 graphs through the API", (suite) => {
  let api: TestApp;
  beforeEach(async () => {
    api = await startTestApp(suite.db());
  });
  afterEach(async () => {
    await api.close();
  });

  /**
   * question ─► route ─[short]─► direct ───────────────────► answer ─► result
   *               └─[default]─► draft ─► check ─[pass]─────────┘
   *                              ▲──[retry, loop regen]──┘
   */
  test("adds a node of every type, in one workflow, with the default config nodeTypes gives the type", async () => {
    const { nodeTypes } = await api.admin.request(NodeTypeCatalogue);
    expect(nodeTypes.find((type) => type.type === "switch")?.defaultConfig).toMatchObject({ cases: [{ port: "case_1" }] });
    const { createWorkflow } = await api.admin.request(CreateBlankPipeline, { name: "Every type" });
    const workflowId = createWorkflow.workflow!.id;
    // The one output node a workflow may have is there already; each other type is added as the palette adds it.
    for (const type of nodeTypes.filter((candidate) => candidate.count?.max !== 1)) {
      const input = { type: type.type, ...(type.defaultConfig ? { config: type.defaultConfig } : {}) };
      const { addNode } = await api.admin.request(AddDefaultNode, { workflowId, input });
      expect(addNode.errors, type.type).toEqual([]);
      expect(addNode.node?.config ?? null, type.type).toEqual(type.defaultConfig ?? null);
    }
  });

  test("imports a looping v2 document and reads back its configs, ports, loop edges, loops, state and limits", async () => {
    const { importWorkflow } = await api.admin.request(ImportPipeline, { document: await retryLoopDocument() });
    expect(importWorkflow.errors).toEqual([]);
    const workflow = importWorkflow.workflow!;
    expect(workflow.loops).toEqual([{ id: "regen", max: 3, exit: "pass" }]);
    expect(workflow.state).toEqual([{ name: "drafts", reducer: "append", key: null, scope: "run" }]);
    expect(workflow.limits).toEqual({ maxInvocations: null });
    const node = (id: string) => workflow.nodes.find((candidate) => candidate.id === id)!;
    expect(node("route")).toMatchObject({ type: "switch", config: { cases: [{ port: "short", when: "size(input) < 12" }] }, ports: ["short", "default"] });
    expect(node("draft")).toMatchObject({ type: "llm", provider: "offline", model: "scripted", config: { writes: "drafts" }, ports: ["out"] });
    expect(node("check")).toMatchObject({ type: "grade", config: { threshold: 0.8 }, ports: ["pass", "retry", "fail"] });
    expect(node("question")).toMatchObject({ config: null, ports: ["out"] });
    expect(workflow.edges.map((edge) => [edge.source, edge.sourcePort, edge.target, edge.loop])).toEqual([
      ["question", "out", "route", null],
      ["route", "short", "direct", null],
      ["route", "default", "draft", null],
      ["draft", "out", "check", null],
      ["check", "pass", "answer", null],
      ["check", "retry", "draft", "regen"],
      ["direct", "out", "answer", null],
      ["answer", "out", "result", null],
    ]);
    expect((await api.admin.request(GetPipeline, { id: workflow.id })).workflow).toEqual(workflow);
  });

  test("exports a v2 workflow as a v2 document that imports back as the same workflow, and a copy holds the same graph and settings", async () => {
    const { importWorkflow } = await api.admin.request(ImportPipeline, { document: await retryLoopDocument() });
    const { id: _id, version: _version, ...original } = importWorkflow.workflow!;
    const exported = JSON.parse((await api.admin.request(ExportPipeline, { id: importWorkflow.workflow!.id })).exportWorkflow!) as Record<string, unknown>;
    expect(exported["format"]).toBe("weft.workflow/v2");
    expect(exported).toEqual(normalised(exported));
    const again = (await api.admin.request(ImportPipeline, { document: exported })).importWorkflow.workflow!;
    expect({ ...again, id: _id, version: _version }).toEqual(importWorkflow.workflow);

    const copy = (await api.admin.request(DuplicatePipeline, { id: importWorkflow.workflow!.id })).duplicateWorkflow.workflow!;
    expect({ ...copy, id: _id, version: _version }).toEqual(importWorkflow.workflow);
    expect(original.nodes.length).toBe(7);
  });

  test("exports a workflow that uses only v1 features as weft.workflow/v1, even when it was imported as v2", async () => {
    const document = {
      format: "weft.workflow/v2",
      name: "plain",
      nodes: [{ id: "in", type: "input", content: "hello" }, { id: "g", type: "generation", provider: "offline", model: "echo" }, { id: "out", type: "output" }],
      edges: [{ source: "in", target: "g" }, { source: "g", target: "out" }],
    };
    const { importWorkflow } = await api.admin.request(ImportPipeline, { document });
    expect(importWorkflow.errors).toEqual([]);
    const exported = JSON.parse((await api.admin.request(ExportPipeline, { id: importWorkflow.workflow!.id })).exportWorkflow!) as Record<string, unknown>;
    expect(exported["format"]).toBe("weft.workflow/v1");
    expect(importWorkflow.workflow!.edges.every((edge) => edge.sourcePort === "out" && edge.loop === null)).toBe(true);
  });

  test("a published v2 version keeps its configs, loop edges and settings, and exports as v2", async () => {
    const document = await retryLoopDocument();
    const { importWorkflow } = await api.admin.request(ImportPipeline, { document, publish: true });
    const workflowId = importWorkflow.workflow!.id;
    const { workflowVersion } = await api.admin.request(PipelineVersion, { workflowId, number: 1 });
    expect(workflowVersion).toMatchObject({
      number: 1,
      loops: [{ id: "regen", max: 3, exit: "pass" }],
      state: [{ name: "drafts", reducer: "append", scope: "run" }],
      limits: { maxInvocations: null },
    });
    expect(workflowVersion!.nodes.find((node) => node.id === "route")).toMatchObject({ config: { cases: [{ port: "short" }] }, ports: ["short", "default"] });
    expect(workflowVersion!.edges.find((edge) => edge.loop === "regen")).toMatchObject({ sourcePort: "retry" });
    const published = JSON.parse((await api.admin.request(ExportPipeline, { id: workflowId, version: 1 })).exportWorkflow!) as unknown;
    expect(published).toEqual(normalised(document));
  });

  /**
   * q ─► route ─[many]─► each (map: item ─► say ─► itemOut) ─► out
   * route's condition does not compile; `say` writes a channel nobody declared.
   */
  test("refuses an import with every new violation at once: the expression's field and position, a body's path", async () => {
    const document = {
      format: "weft.workflow/v2",
      name: "broken",
      nodes: [
        { id: "q", type: "input", content: "a,b" },
        { id: "route", type: "switch", cases: [{ port: "many", when: "size(input) >" }] },
        {
          id: "each",
          type: "map",
          items: "input.split(',')",
          body: {
            nodes: [{ id: "item", type: "input" }, { id: "say", type: "template", template: "{item}", writes: "nope" }, { id: "itemOut", type: "output" }],
            edges: [{ source: "item", target: "say" }, { source: "say", target: "itemOut" }],
          },
        },
        { id: "out", type: "output" },
      ],
      edges: [{ source: "q", target: "route" }, { source: "route", sourcePort: "many", target: "each" }, { source: "each", target: "out" }],
    };
    const { importWorkflow } = await api.admin.request(ImportPipeline, { document });
    expect(importWorkflow.workflow).toBeNull();
    expect(importWorkflow.errors).toEqual([
      expect.objectContaining({ code: "EXPRESSION_INVALID", nodeIds: ["route"], field: "cases[0].when", position: 13, bodyPath: null, path: null }),
      expect.objectContaining({ code: "STATE_UNKNOWN_CHANNEL", nodeIds: ["say"], field: "writes", bodyPath: ["each"] }),
    ]);
    expect(await suite.db().prisma.workflow.count()).toBe(0);
  });

  /**
   * in ─► draft ─► check ─[pass]────► out      loop "wide" is declared with max 500 (over 100);
   *          ▲──[retry, loop "again"]─┘         "again" is not declared; check has no port "nowhere"
   *                  check ─[nowhere]─► out
   */
  test("validateWorkflow reports the v2 rule codes of a stored graph with the fields they are about", async () => {
    const workflow = {
      name: "stored",
      prompts: {},
      outputFormat: "",
      knowledgeBase: null,
      intensity: "LOW",
      loops: [{ id: "wide", max: 500, exit: null }],
      nodes: [
        { id: "in", type: "input", content: "x" },
        { id: "draft", type: "llm", provider: "offline", model: "scripted", params: { replies: ["a"] } },
        { id: "check", type: "grade", provider: "offline", model: "scripted", params: { replies: [{ verdict: "pass", score: 1, reason: "" }] } },
        { id: "out", type: "output" },
      ],
      edges: [
        { id: "e1", source: "in", target: "draft" },
        { id: "e2", source: "draft", target: "check" },
        { id: "e3", source: "check", sourcePort: "pass", target: "out" },
        { id: "e4", source: "check", sourcePort: "retry", target: "draft", loop: "again" },
        { id: "e5", source: "check", sourcePort: "nowhere", target: "out" },
      ],
    } as unknown as Workflow;
    const id = await seedWorkflow(suite.db(), workflow);
    const { validateWorkflow } = await api.admin.request(ValidatePipeline, { id });
    expect(validateWorkflow.valid).toBe(false);
    expect(validateWorkflow.violations.map(({ code, nodeIds, edgeIds, field }) => ({ code, nodeIds, edgeIds, field }))).toEqual([
      { code: "PORT_UNKNOWN", nodeIds: ["check", "out"], edgeIds: ["e5"], field: null },
      { code: "MULTIPLE_PRE", nodeIds: ["out", "check", "check"], edgeIds: ["e3", "e5"], field: null },
      { code: "LOOP_NOT_DECLARED", nodeIds: ["check", "draft"], edgeIds: ["e4"], field: null },
      { code: "LOOP_BOUND_INVALID", nodeIds: [], edgeIds: [], field: "loops[0].max" },
    ]);
  });

  test("the node-type catalogue describes ports, bodies and every type's fields as JSON Schema", async () => {
    const { nodeTypes } = await api.admin.request(NodeTypeCatalogue);
    const type = (name: string) => nodeTypes.find((candidate) => candidate.type === name)!;
    expect(nodeTypes.map((candidate) => candidate.type)).toEqual(expect.arrayContaining(["llm", "switch", "classify", "grade", "join", "template", "map", "subgraph", "retrieve", "web_search", "cache_lookup", "cache_store"]));
    expect(type("switch")).toMatchObject({ profile: "pipeline", component: "RouterNode", router: true, composite: false, ports: ["default"], portsField: "cases" });
    expect(type("grade")).toMatchObject({ router: true, ports: ["pass", "retry", "fail"], attributes: ["provider", "model", "params", "prompt"] });
    expect(type("map")).toMatchObject({ composite: true, ports: ["out"] });
    expect(type("generation")).toMatchObject({ profile: "seed", fields: [expect.objectContaining({ name: "writes", kind: "channel" })] });
    const cases = type("switch").fields.find((field) => field.name === "cases")!;
    expect(cases).toMatchObject({ required: true });
    expect(type("switch").fields.find((field) => field.name === "mode")).toMatchObject({ enumValues: ["first", "all"], default: "first" });
    expect(type("map").fields.find((field) => field.name === "concurrency")).toMatchObject({ kind: "integer", minimum: 1 });
    expect(type("retrieve").fields.find((field) => field.name === "knowledgeBase")).toMatchObject({ kind: "knowledgeBase" });
    expect(type("switch").configSchema).toMatchObject({ type: "object", properties: { cases: { type: "array" } } });
  });
});
