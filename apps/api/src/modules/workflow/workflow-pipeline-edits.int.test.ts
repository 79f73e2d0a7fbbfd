import { afterEach, beforeEach, expect, test } from "vitest";
import { seedWorkflow, startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase, type TestDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";
import { CancelRun, RunWorkflow } from "../../testing/operations.js";
import { arrows } from "../../testing/workflows.js";

/**
 * Edits of weft.workflow/v2 graphs through the real server on both databases: nodes with configs, edges
 * from ports and loop edges, loops, state channels and limits, each refused with the rule's code and
 * the field it is about, a refused edit changing nothing, and LOCKED_WHILE_RUNNING during a draft run.
 */

export const EditErrors = graphql(`
  fragment EditErrors on UserError { code message nodeIds edgeIds path field position bodyPath }
`);

const AddPipelineNode = graphql(`
  mutation PeAddNode($workflowId: ID!, $input: AddNodeInput!) {
    addNode(workflowId: $workflowId, input: $input) { node { id type config ports } errors { ...EditErrors } }
  }
`);

const UpdatePipelineNode = graphql(`
  mutation PeUpdateNode($workflowId: ID!, $nodeId: ID!, $input: UpdateNodeInput!) {
    updateNode(workflowId: $workflowId, nodeId: $nodeId, input: $input) { node { id config ports } errors { ...EditErrors } }
  }
`);

const AddPipelineEdge = graphql(`
  mutation PeAddEdge($workflowId: ID!, $source: ID!, $target: ID!, $sourcePort: String, $loop: String) {
    addEdge(workflowId: $workflowId, source: $source, target: $target, sourcePort: $sourcePort, loop: $loop) {
      edge { id source sourcePort target loop order }
      errors { ...EditErrors }
    }
  }
`);

const AddLoopEdge = graphql(`
  mutation PeAddLoopEdge($workflowId: ID!, $source: ID!, $target: ID!, $sourcePort: String, $loop: String, $declareLoop: LoopInput) {
    addEdge(workflowId: $workflowId, source: $source, target: $target, sourcePort: $sourcePort, loop: $loop, declareLoop: $declareLoop) {
      workflow { version loops { id max exit } }
      edge { id source sourcePort target loop }
      errors { ...EditErrors }
    }
  }
`);

const UpdateSettings = graphql(`
  mutation PeSettings($id: ID!, $input: UpdateWorkflowInput!) {
    updateWorkflow(id: $id, input: $input) {
      workflow { version loops { id max exit } state { name reducer key scope } limits { maxInvocations maxCostUsd } }
      errors { ...EditErrors }
    }
  }
`);

const CreateBlank = graphql(`
  mutation PeCreate($name: String!) { createWorkflow(input: { name: $name }) { workflow { id } errors { code } } }
`);

const RemoveFirstEdge = graphql(`
  mutation PeRemoveEdge($workflowId: ID!, $edgeId: ID!) { removeEdge(workflowId: $workflowId, edgeId: $edgeId) { errors { code } } }
`);

const Validate = graphql(`
  query PeValidate($id: ID!) { validateWorkflow(id: $id) { valid violations { code message nodeIds field } } }
`);

async function rows(db: TestDatabase) {
  const [workflows, nodes, edges] = await Promise.all([
    db.prisma.workflow.findMany({ orderBy: { id: "asc" } }),
    db.prisma.workflowNode.findMany({ orderBy: [{ workflowId: "asc" }, { key: "asc" }] }),
    db.prisma.workflowEdge.findMany({ orderBy: [{ workflowId: "asc" }, { key: "asc" }] }),
  ]);
  return { workflows, nodes, edges };
}

const scripted = (replies: unknown[]) => ({ provider: "offline", model: "scripted", params: { replies } });

describeEachDatabase("editing weft.workflow/v2 graphs through the API", (suite) => {
  let api: TestApp;
  let workflowId: string;
  beforeEach(async () => {
    api = await startTestApp(suite.db());
    const { createWorkflow } = await api.admin.request(CreateBlank, { name: "pipeline" });
    workflowId = createWorkflow.workflow!.id;
    // input-1 ─► output-1 as created; the tests build from input-1 and take the output edge away.
    await api.admin.request(RemoveFirstEdge, { workflowId, edgeId: "e1" });
  });
  afterEach(async () => {
    await api.close();
  });

  const addNode = async (input: Record<string, unknown>) => (await api.admin.request(AddPipelineNode, { workflowId, input: input as never })).addNode;
  const addEdge = async (source: string, target: string, options: { sourcePort?: string; loop?: string } = {}) =>
    (await api.admin.request(AddPipelineEdge, { workflowId, source, target, ...options })).addEdge;
  const settings = async (input: Record<string, unknown>) => (await api.admin.request(UpdateSettings, { id: workflowId, input })).updateWorkflow;

  /**
   * input-1 ─► draft ─► check ─[pass]─► output-1
   *             ▲──[retry, loop regen]──┘
   */
  test("builds a looping graph edit by edit: configs, state, a declared loop, port edges and a loop edge", async () => {
    expect((await addNode({ id: "draft", type: "llm", ...scripted(["a"]), prompt: "{input} {feedback}", config: { writes: "drafts" } })).errors).toEqual([
      expect.objectContaining({ code: "STATE_UNKNOWN_CHANNEL", nodeIds: ["draft"], field: "writes" }),
    ]);
    const declared = await settings({ state: [{ name: "drafts", reducer: "append" }], loops: [{ id: "regen", max: 3, exit: "pass" }], limits: { maxInvocations: 50, maxCostUsd: 0.25 } });
    expect(declared.errors).toEqual([]);
    expect(declared.workflow).toMatchObject({
      state: [{ name: "drafts", reducer: "append", key: null, scope: "run" }],
      loops: [{ id: "regen", max: 3, exit: "pass" }],
      limits: { maxInvocations: 50, maxCostUsd: 0.25 },
    });
    const draft = await addNode({ id: "draft", type: "llm", ...scripted(["a"]), prompt: "{input} {feedback}", config: { writes: "drafts" } });
    expect(draft).toMatchObject({ errors: [], node: { id: "draft", config: { writes: "drafts" }, ports: ["out"] } });
    const check = await addNode({ id: "check", type: "grade", ...scripted([{ verdict: "pass", score: 1, reason: "" }]), config: { threshold: 0.5 } });
    expect(check).toMatchObject({ errors: [], node: { ports: ["pass", "retry", "fail"] } });
    expect((await addEdge("input-1", "draft")).errors).toEqual([]);
    expect((await addEdge("draft", "check")).errors).toEqual([]);
    expect((await addEdge("check", "output-1", { sourcePort: "pass" })).edge).toMatchObject({ sourcePort: "pass", loop: null });
    expect((await addEdge("check", "draft", { sourcePort: "retry", loop: "regen" })).edge).toMatchObject({ source: "check", sourcePort: "retry", target: "draft", loop: "regen" });
    expect((await api.admin.request(Validate, { id: workflowId })).validateWorkflow).toEqual({ valid: true, violations: [] });
  });

  /**
   * input-1 ─► draft ─► check ─[pass]─► output-1
   *             ▲──[retry, loop regen declared by this edge]──┘
   */
  test("declares a loop with its first loop edge in one step, and a refused loop edge leaves no declaration behind", async () => {
    expect((await addNode({ id: "draft", type: "llm", ...scripted(["a"]), prompt: "{input} {feedback}" })).errors).toEqual([]);
    expect((await addNode({ id: "check", type: "grade", ...scripted([{ verdict: "pass", score: 1, reason: "" }]) })).errors).toEqual([]);
    expect((await addEdge("input-1", "draft")).errors).toEqual([]);
    expect((await addEdge("draft", "check")).errors).toEqual([]);
    expect((await addEdge("check", "output-1", { sourcePort: "pass" })).errors).toEqual([]);
    const addLoopEdge = async (source: string, target: string, options: { sourcePort?: string; loop?: string; declareLoop?: { id: string; max?: number; exit?: string } }) =>
      (await api.admin.request(AddLoopEdge, { workflowId, source, target, ...options })).addEdge;
    const before = await rows(suite.db());

    // Refused for the declaration (a bound past 100, a bad id, a loop named twice) or for the edge (not from a router port): nothing stored.
    const bound = await addLoopEdge("check", "draft", { sourcePort: "retry", declareLoop: { id: "regen", max: 500 } });
    expect(bound.errors.map((error) => error.code)).toEqual(["LOOP_BOUND_INVALID"]);
    const blank = await addLoopEdge("check", "draft", { sourcePort: "retry", declareLoop: { id: " ", max: 3 } });
    expect(blank.errors).toEqual([expect.objectContaining({ code: "VALIDATION_FAILED", path: ["declareLoop", "id"] })]);
    const mismatch = await addLoopEdge("check", "draft", { sourcePort: "retry", loop: "other", declareLoop: { id: "regen", max: 3 } });
    expect(mismatch.errors).toEqual([expect.objectContaining({ code: "VALIDATION_FAILED", path: ["loop"] })]);
    const unconditional = await addLoopEdge("draft", "input-1", { declareLoop: { id: "regen", max: 3 } });
    expect(unconditional.errors.map((error) => error.code)).toContain("LOOP_UNCONDITIONAL");
    expect(await rows(suite.db())).toEqual(before);

    const declared = await addLoopEdge("check", "draft", { sourcePort: "retry", declareLoop: { id: "regen", max: 3, exit: "pass" } });
    expect(declared.errors).toEqual([]);
    expect(declared.edge).toMatchObject({ source: "check", sourcePort: "retry", target: "draft", loop: "regen" });
    expect(declared.workflow).toMatchObject({ version: before.workflows[0]!.version + 1, loops: [{ id: "regen", max: 3, exit: "pass" }] });
    const again = await addLoopEdge("check", "draft", { sourcePort: "fail", declareLoop: { id: "regen", max: 2 } });
    expect(again.errors).toEqual([expect.objectContaining({ code: "CONFLICT", path: ["declareLoop", "id"] })]);
    expect((await api.admin.request(Validate, { id: workflowId })).validateWorkflow).toEqual({ valid: true, violations: [] });
  });

  /**
   * input-1 ─► route (switch) ─[yes]─► output-1     the edits below are each refused:
   *   an unknown port, a loop edge from a node that is not a router, a loop nobody declared
   */
  test("refuses port and loop edges that break a rule, with the code, and changes nothing", async () => {
    expect((await addNode({ id: "route", type: "switch", config: { cases: [{ port: "yes", when: "input == 'y'" }] } })).errors).toEqual([]);
    expect((await addNode({ id: "echo", type: "template", config: { template: "{input}" } })).errors).toEqual([]);
    expect((await addEdge("input-1", "route")).errors).toEqual([]);
    expect((await addEdge("route", "output-1", { sourcePort: "yes" })).errors).toEqual([]);
    const before = await rows(suite.db());

    expect((await addEdge("route", "echo", { sourcePort: "maybe" })).errors).toEqual([expect.objectContaining({ code: "PORT_UNKNOWN", nodeIds: expect.arrayContaining(["route"]) })]);
    expect((await addEdge("route", "echo", { loop: "again" })).errors.map((error) => error.code)).toContain("LOOP_NOT_DECLARED");
    await settings({ loops: [{ id: "again", max: 2 }] });
    const afterSettings = await rows(suite.db());
    expect((await addEdge("echo", "route", { loop: "again" })).errors.map((error) => error.code)).toContain("LOOP_UNCONDITIONAL");
    expect((await addEdge("route", "route", { sourcePort: "default" })).errors.map((error) => error.code)).toEqual(["SELF_LOOP"]);
    expect((await addEdge("route", "output-1", { sourcePort: "" })).errors).toEqual([expect.objectContaining({ code: "VALIDATION_FAILED", path: ["sourcePort"] })]);
    // A router's config may not drop a port its edges leave from.
    const dropped = await api.admin.request(UpdatePipelineNode, { workflowId, nodeId: "route", input: { config: { cases: [{ port: "no", when: "true" }] } } });
    expect(dropped.updateNode.errors.map((error) => error.code)).toContain("PORT_UNKNOWN");
    expect(await rows(suite.db())).toEqual(afterSettings);
    expect(before.edges).toEqual(afterSettings.edges);
  });

  test("refuses a node config that does not fit its type, or whose expression does not compile, at the field and position", async () => {
    const before = await rows(suite.db());
    const shape = await addNode({ id: "route", type: "switch", config: { cases: "yes" } });
    expect(shape.errors).toEqual([expect.objectContaining({ code: "VALIDATION_FAILED", field: "cases", path: ["input", "config", "cases"] })]);
    const unknown = await addNode({ id: "route", type: "switch", config: { cases: [{ port: "a", when: "true" }], colour: "red" } });
    expect(unknown.errors).toEqual([expect.objectContaining({ code: "VALIDATION_FAILED", field: "colour" })]);
    const cel = await addNode({ id: "route", type: "switch", config: { cases: [{ port: "a", when: "input ==" }] } });
    expect(cel.errors).toEqual([expect.objectContaining({ code: "EXPRESSION_INVALID", field: "cases[0].when", position: 8, nodeIds: ["route"] })]);
    const missing = await addNode({ id: "each", type: "map" });
    expect(missing.errors).toEqual([expect.objectContaining({ code: "VALIDATION_FAILED", field: "body" })]);
    expect(await rows(suite.db())).toEqual(before);

    expect((await addNode({ id: "route", type: "switch", config: { cases: [{ port: "a", when: "true" }] } })).errors).toEqual([]);
    const update = await api.admin.request(UpdatePipelineNode, { workflowId, nodeId: "route", input: { config: { cases: [{ port: "a", when: "inputs.x +" }] } } });
    expect(update.updateNode.errors).toEqual([expect.objectContaining({ code: "EXPRESSION_INVALID", field: "cases[0].when", nodeIds: ["route"] })]);
    const renamed = await api.admin.request(UpdatePipelineNode, { workflowId, nodeId: "route", input: { config: { cases: [{ port: "b", when: "true" }], mode: "all" } } });
    expect(renamed.updateNode).toMatchObject({ errors: [], node: { config: { cases: [{ port: "b", when: "true" }], mode: "all" }, ports: ["b", "default"] } });
  });

  /** map "each" whose body (item ─► say ─► itemOut) reuses the id of the workflow's input node */
  test("keeps node ids unique across the workflow, bodies included", async () => {
    const body = (inner: string) => ({
      nodes: [{ id: inner, type: "input" }, { id: `${inner}-say`, type: "template", template: "{item}" }, { id: `${inner}-out`, type: "output" }],
      edges: [{ source: inner, target: `${inner}-say` }, { source: `${inner}-say`, target: `${inner}-out` }],
    });
    const clash = await addNode({ id: "each", type: "map", config: { body: body("input-1") } });
    expect(clash.errors).toEqual([expect.objectContaining({ code: "CONFLICT", field: "body", path: ["input", "config", "body"] })]);
    const added = await addNode({ id: "each", type: "map", config: { body: body("item") } });
    expect(added.errors).toEqual([]);
    // The body reads back as it was written: its nodes' fields flat on them, as in a document.
    expect(added.node!.config).toMatchObject({ body: { nodes: [{ id: "item" }, { id: "item-say", type: "template", template: "{item}" }, { id: "item-out" }] } });
    const taken = await addNode({ id: "item-say", type: "template", config: { template: "{input}" } });
    expect(taken.errors).toEqual([expect.objectContaining({ code: "CONFLICT", path: ["input", "id"] })]);
  });

  test("checks loops, state channels and limits as the document does, then against the graph's rules", async () => {
    const before = await rows(suite.db());
    const duplicate = await settings({ loops: [{ id: "a", max: 2 }, { id: "a", max: 3 }] });
    expect(duplicate.errors).toEqual([expect.objectContaining({ code: "VALIDATION_FAILED", field: "loops[1].id", path: ["input", "loops", "1", "id"] })]);
    const channels = await settings({ state: [{ name: "ok", reducer: "append" }, { name: "not a name", reducer: "replace" }] });
    expect(channels.errors).toEqual([expect.objectContaining({ code: "VALIDATION_FAILED", path: ["input", "state", "1", "name"] })]);
    const limits = await settings({ limits: { maxInvocations: 0 } });
    expect(limits.errors).toEqual([expect.objectContaining({ code: "VALIDATION_FAILED", field: "limits.maxInvocations" })]);
    const cost = await settings({ limits: { maxCostUsd: 0 } });
    expect(cost.errors).toEqual([expect.objectContaining({ code: "VALIDATION_FAILED", field: "limits.maxCostUsd" })]);
    const bound = await settings({ loops: [{ id: "wide", max: 500 }] });
    expect(bound.errors).toEqual([expect.objectContaining({ code: "LOOP_BOUND_INVALID", field: "loops[0].max" })]);
    expect(await rows(suite.db())).toEqual(before);

    await settings({ state: [{ name: "notes", reducer: "append" }] });
    expect((await addNode({ id: "note", type: "template", config: { template: "{input}", writes: "notes" } })).errors).toEqual([]);
    const dropped = await settings({ state: [] });
    expect(dropped.errors).toEqual([expect.objectContaining({ code: "STATE_UNKNOWN_CHANNEL", nodeIds: ["note"], field: "writes" })]);
  });

  test("refuses config and loop changes while a run of the draft is active; settings that are not the graph's still change", async () => {
    const id = await seedWorkflow(suite.db(), arrows(["in->g1->out"], { params: { delayMs: 60_000 } }));
    const { runWorkflow } = await api.admin.request(RunWorkflow, { workflowId: id });
    const config = await api.admin.request(UpdatePipelineNode, { workflowId: id, nodeId: "g1", input: { config: { writes: "x" } } });
    expect(config.updateNode.errors.map((error) => error.code)).toEqual(["LOCKED_WHILE_RUNNING"]);
    const loops = await api.admin.request(UpdateSettings, { id, input: { loops: [{ id: "l", max: 2 }] } });
    expect(loops.updateWorkflow.errors.map((error) => error.code)).toEqual(["LOCKED_WHILE_RUNNING"]);
    expect((await api.admin.request(UpdateSettings, { id, input: { outputFormat: "during the run" } })).updateWorkflow.errors).toEqual([]);
    await api.admin.request(CancelRun, { id: runWorkflow.run!.id });
  });
});
