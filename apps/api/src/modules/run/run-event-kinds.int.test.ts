import { readFile } from "node:fs/promises";
import { Kind, parse, print, type OperationDefinitionNode } from "graphql";
import { afterEach, beforeEach, expect, test } from "vitest";
import { seedWorkflow, startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";
import { RunWorkflow } from "../../testing/operations.js";
import { arrows } from "../../testing/workflows.js";

/**
 * The run events' own types (RunEvent, NodeEvent and one type per kind) through the real server: each
 * event arrives as its kind's type with exactly that kind's fields, the subscription and Run.events
 * agree, and the deprecated lifted fields still answer as before — selected in the same query as the
 * kinds' fields, which GraphQL accepts because every field name has one type across the kinds.
 */

export const TypedEvent = graphql(`
  fragment TypedEvent on RunEvent {
    __typename
    seq
    type
    nodeId
    output
    text
    description
    reason
    error { code message }
    ... on NodeEvent { invocation }
    ... on RunStartedEvent { nodeIds }
    ... on NodeStartedEvent { nodeType }
    ... on NodeDescriptionEvent { description }
    ... on NodeCompletedEvent {
      description
      output
      ports
      details { provider model retries startedAt finishedAt usage { promptTokens completionTokens totalTokens } }
    }
    ... on NodeSkippedEvent { reason blockedBy }
    ... on WarningEvent { code message }
    ... on BranchTakenEvent { ports skipped }
    ... on LoopIterationEvent { invocation loopId iteration max feedback }
    ... on RunCompletedEvent { result outputs { nodeId output } usage { totalTokens } state }
  }
`);

const TypedRunEvents = graphql(`
  subscription TypedRunEvents($runId: ID!) { runEvents(runId: $runId, afterSeq: 0) { ...TypedEvent } }
`);

const TypedStoredEvents = graphql(`
  query TypedStoredEvents($id: ID!) { run(id: $id) { totalTokens events(limit: 200) { ...TypedEvent } } }
`);

const ImportWorkflow = graphql(`
  mutation TypedImport($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }
`);

const RETRY_LOOP = new URL("../../../../../examples/retry-loop.json", import.meta.url);

/** The `runEvents` subscriptions written in the README's and the API docs' GraphQL examples. */
async function documentedSubscriptions(): Promise<{ file: string; operation: OperationDefinitionNode }[]> {
  const found: { file: string; operation: OperationDefinitionNode }[] = [];
  for (const file of ["README.md", "docs/api.md", "docs/api-pipelines.md"]) {
    const text = await readFile(new URL(`../../../../../${file}`, import.meta.url), "utf8");
    for (const [, block] of text.matchAll(/```graphql\n([\s\S]*?)```/g)) {
      for (const definition of parse(block!).definitions) {
        if (definition.kind === Kind.OPERATION_DEFINITION && definition.operation === "subscription" && print(definition).includes("runEvents(")) found.push({ file, operation: definition });
      }
    }
  }
  return found;
}

describeEachDatabase("run events typed by kind", (suite) => {
  let api: TestApp;
  beforeEach(async () => {
    api = await startTestApp(suite.db());
  });
  afterEach(async () => {
    await api.close();
  });

  async function runToEnd(workflowId: string) {
    const { runWorkflow } = await api.admin.request(RunWorkflow, { workflowId });
    expect(runWorkflow.errors).toEqual([]);
    const runId = runWorkflow.run!.id;
    const ws = api.admin.ws();
    const collected = api.admin.subscribe(ws, TypedRunEvents, { runId });
    await collected.ended;
    await ws.dispose();
    expect(collected.errors).toEqual([]);
    const events = collected.items.map((item) => item.runEvents);
    const { run } = await api.admin.request(TypedStoredEvents, { id: runId });
    expect(run!.events).toEqual(events);
    return { events, run: run!, of: <T extends string>(name: T) => events.filter((event): event is Extract<(typeof events)[number], { __typename: T }> => event.__typename === name) };
  }

  test("a run of in ──▶ g1 ──▶ out arrives kind by kind with each kind's fields, and the deprecated ones agree", async () => {
    const { events, run, of } = await runToEnd(await seedWorkflow(suite.db(), arrows(["in->g1->out"])));
    expect(events.map((event) => [event.__typename, event.nodeId])).toEqual([
      ["RunStartedEvent", null],
      ["NodeStartedEvent", "in"],
      ["NodeDescriptionEvent", "in"],
      ["NodeCompletedEvent", "in"],
      ["NodeStartedEvent", "g1"],
      ["NodeDescriptionEvent", "g1"],
      ["NodeCompletedEvent", "g1"],
      ["NodeStartedEvent", "out"],
      ["NodeDescriptionEvent", "out"],
      ["NodeCompletedEvent", "out"],
      ["RunCompletedEvent", null],
    ]);
    expect(of("RunStartedEvent")[0]!.nodeIds).toEqual(["in", "g1", "out"]);
    expect(of("NodeStartedEvent").map((event) => [event.nodeId, event.nodeType, event.invocation])).toEqual([
      ["in", "input", ""],
      ["g1", "generation", ""],
      ["out", "output", ""],
    ]);
    const g1 = of("NodeCompletedEvent").find((event) => event.nodeId === "g1")!;
    expect(g1.details).toMatchObject({ provider: "offline", model: "echo", retries: 0, usage: { totalTokens: expect.any(Number) } });
    expect(Date.parse(g1.details.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(g1.details.startedAt!));
    const end = of("RunCompletedEvent")[0]!;
    expect(end.outputs).toEqual(["g1", "in", "out"].map((nodeId) => ({ nodeId, output: "content of in" })));
    expect(end.result).toBe("content of in");
    expect(end.usage.totalTokens).toBe(run.totalTokens);
    expect(end.state).toBeNull();
    // The deprecated lifted fields, selected beside the kinds' own: a run's result was its `output`.
    expect(end.output).toBe(end.result);
  });

  /**
   * question ─► route ─[short]─► direct ──────────────► answer ─► result
   *               └─[default]─► draft ─► check ─[pass]──┘
   *                              ▲──[retry, loop regen]──┘
   */
  test("a pipeline's branches, loop iterations and skipped nodes carry their own fields", async () => {
    const { importWorkflow } = await api.admin.request(ImportWorkflow, { document: JSON.parse(await readFile(RETRY_LOOP, "utf8")) });
    expect(importWorkflow.errors).toEqual([]);
    const { of } = await runToEnd(importWorkflow.workflow!.id);
    expect(of("BranchTakenEvent").find((event) => event.nodeId === "route")).toMatchObject({ ports: ["default"], skipped: ["short"], invocation: "" });
    expect(of("NodeSkippedEvent")).toEqual([expect.objectContaining({ nodeId: "direct", reason: "BRANCH_NOT_TAKEN", blockedBy: null, invocation: "" })]);
    expect(of("LoopIterationEvent").map((event) => [event.loopId, event.iteration, event.max, event.feedback, event.invocation])).toEqual([
      ["regen", 2, 3, "say what scatters the light", "regen#2"],
      ["regen", 3, 3, "name the effect", "regen#3"],
    ]);
    expect(of("NodeCompletedEvent").filter((event) => event.nodeId === "draft").map((event) => event.invocation)).toEqual(["", "regen#2", "regen#3"]);
    expect(of("RunCompletedEvent")[0]!.state).toEqual({ drafts: [expect.any(String), expect.any(String), expect.any(String)] });
  });

  test("the runEvents examples of the README and the API docs run as written and deliver the whole run", async () => {
    const { runWorkflow } = await api.admin.request(RunWorkflow, { workflowId: await seedWorkflow(suite.db(), arrows(["in->g1->out"])) });
    const runId = runWorkflow.run!.id;
    const examples = await documentedSubscriptions();
    expect(new Set(examples.map((example) => example.file))).toEqual(new Set(["README.md", "docs/api.md", "docs/api-pipelines.md"]));
    for (const { file, operation } of examples) {
      // Every variable the examples declare is the run's id or a seq to start after.
      const variables = Object.fromEntries((operation.variableDefinitions ?? []).map((definition) => [definition.variable.name.value, print(definition.type).startsWith("Int") ? 0 : runId]));
      const ws = api.admin.ws();
      const collected = api.admin.subscribe<{ runEvents: { __typename?: string; type: string } }, Record<string, unknown>>(ws, print(operation), variables);
      await collected.ended;
      await ws.dispose();
      expect({ file, errors: collected.errors }).toEqual({ file, errors: [] });
      expect(collected.items.at(-1)?.runEvents).toMatchObject({ type: "RUN_COMPLETED" });
    }
  });
});
