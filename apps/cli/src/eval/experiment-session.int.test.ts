import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../testing/api-server.js";
import { apiEndpoint } from "../commands/eval.command.js";
import * as ops from "./experiment-operations.js";
import { EvalInterrupted, runEvaluation, type EvalTarget } from "./experiment-session.js";
import { GraphqlHttpClient } from "./graphql-http.client.js";

/**
 * runEvaluation in this process against the real API in its own (embedded database): what happens when
 * something goes wrong around the experiment — an error while it runs, a clean-up the API refuses, a
 * Ctrl-C before it starts. The command's ordinary paths are in eval.int.test.ts.
 */
const EXAMPLES = resolve(fileURLToPath(import.meta.url), "../../../../../examples");
const WORKFLOW_FILE = `${EXAMPLES}/continents.json`;
const DATASET_FILE = `${EXAMPLES}/evaluations/continents.jsonl`;
const TEST_MS = 120_000;
/** The example's answer held 10 minutes: a run of it stays active until cancelled. */
const SLOW_PARAMS = async () => ({ ...((JSON.parse(await readFile(WORKFLOW_FILE, "utf8")) as { nodes: { params?: object }[] }).nodes[1]!.params), delayMs: 600_000 });

let api: ApiServer;

beforeAll(async () => {
  api = await startApiServer();
}, 150_000);

afterAll(async () => {
  await api?.stop();
});

const counts = () => api.request<{ datasets: { totalCount: number }; workflows: { totalCount: number } }>("{ datasets { totalCount } workflows { totalCount } }");
const target = (workflow: string): EvalTarget => ({ workflow, dataset: DATASET_FILE, draft: false, scorers: [{ id: "exact", type: "exact" }], keep: false });

/** The real client, with a hook called after each request it sends (by the query) and a log of them. */
class WatchedClient extends GraphqlHttpClient {
  readonly sent: string[] = [];
  constructor(private readonly after: (query: string, data: unknown) => Promise<void> = async () => {}) {
    super(apiEndpoint(api.url), api.adminKey);
  }
  override async request<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const data = await super.request<T>(query, variables);
    this.sent.push(query);
    await this.after(query, data);
    return data;
  }
}

describe("runEvaluation when something goes wrong", () => {
  it("throws the error that stopped it while the experiment ran, after cancelling the experiment and deleting the uploads", async () => {
    const client = new WatchedClient(async (query, data) => {
      // The workflow just imported is made slow, so the experiment surely still runs when the error comes.
      if (query === ops.IMPORT_WORKFLOW) {
        const id = (data as { importWorkflow: { workflow: { id: string } } }).importWorkflow.workflow.id;
        await api.request("mutation ($w: ID!, $p: JSONObject!) { updateNode(workflowId: $w, nodeId: \"answer\", input: { params: $p }) { errors { code } } }", { w: id, p: await SLOW_PARAMS() });
      }
    });
    const warnings: string[] = [];
    const failing = runEvaluation(client, target(WORKFLOW_FILE), {
      onProgress: () => {
        throw new Error("stdout is closed");
      },
      warn: (message) => warnings.push(message),
      signal: new AbortController().signal,
    });
    await expect(failing).rejects.toThrow("stdout is closed");
    expect(client.sent).toContain(ops.CANCEL_EXPERIMENT);
    expect(warnings).toEqual([]);
    expect(await counts()).toEqual({ datasets: { totalCount: 0 }, workflows: { totalCount: 0 } });
  }, TEST_MS);

  it("returns the finished report when the API refuses to delete an upload, saying so as a warning", async () => {
    let runId = "";
    const client = new WatchedClient(async (query, data) => {
      // Once the experiment is done, a run of its workflow that stays active blocks deleteWorkflow.
      if (query !== ops.EXPERIMENT_SUMMARY || runId) return;
      const workflowId = (data as { experiment: ops.ExperimentView }).experiment.workflowId;
      await api.request("mutation ($w: ID!, $p: JSONObject!) { updateNode(workflowId: $w, nodeId: \"answer\", input: { params: $p }) { errors { code } } }", { w: workflowId, p: await SLOW_PARAMS() });
      const started = await api.request<{ runWorkflow: { run: { id: string } } }>(
        'mutation ($w: ID!) { runWorkflow(workflowId: $w, input: { draft: true, inputs: [{ nodeId: "country", content: "France" }] }) { run { id } errors { code message } } }',
        { w: workflowId },
      );
      runId = started.runWorkflow.run.id;
    });
    const warnings: string[] = [];
    const outcome = await runEvaluation(client, target(WORKFLOW_FILE), { onProgress: () => {}, warn: (message) => warnings.push(message), signal: new AbortController().signal });
    expect(outcome.experiment.status).toBe("COMPLETED");
    expect(outcome.failingRows.map((row) => [row.position, row.output, row.expected])).toEqual([
      [12, "Asia", "Africa"],
      [20, "I do not know", "Oceania"],
    ]);
    expect(warnings[0]).toBe(`could not delete the uploaded workflow ${outcome.uploaded.workflowId}: LOCKED_WHILE_RUNNING: the workflow cannot be deleted while a run is active; wait for them to end or cancel them`);

    await api.request("mutation ($id: ID!) { cancelRun(id: $id) { errors { code } } }", { id: runId });
    await api.request("mutation ($id: ID!) { deleteWorkflow(id: $id) { errors { code } } }", { id: outcome.uploaded.workflowId });
    await api.request("mutation ($id: ID!) { deleteDataset(id: $id) { errors { code } } }", { id: outcome.uploaded.datasetId });
    expect(await counts()).toEqual({ datasets: { totalCount: 0 }, workflows: { totalCount: 0 } });
  }, TEST_MS);

  it("stops at a Ctrl-C between the uploads: no dataset uploaded, no experiment started, the workflow deleted", async () => {
    const controller = new AbortController();
    const client = new WatchedClient(async (query) => {
      if (query === ops.IMPORT_WORKFLOW) controller.abort();
    });
    const stopped = runEvaluation(client, target(WORKFLOW_FILE), { onProgress: () => {}, warn: () => {}, signal: controller.signal });
    await expect(stopped).rejects.toBeInstanceOf(EvalInterrupted);
    expect(client.sent).toEqual([ops.IMPORT_WORKFLOW, ops.DELETE_WORKFLOW]);
    expect(await counts()).toEqual({ datasets: { totalCount: 0 }, workflows: { totalCount: 0 } });
  }, TEST_MS);
});
