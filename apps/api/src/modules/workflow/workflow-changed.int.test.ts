import { afterEach, expect, test } from "vitest";
import { seedWorkflow, startTestApp, type TestApp } from "../../testing/app.js";
import { describeEachDatabase } from "../../testing/database.js";
import { graphql } from "../../testing/gql/index.js";
import { arrows } from "../../testing/workflows.js";

/**
 * workflowChanged over a real graphql-ws connection while another client edits over HTTP: one message
 * per committed change, versions increasing, nothing for a refused edit.
 */

const WorkflowChanged = graphql(`
  subscription ChangesOfWorkflow($workflowId: ID!) {
    workflowChanged(workflowId: $workflowId) { workflowId version at deleted }
  }
`);

const Move = graphql(`
  mutation ChangesMove($workflowId: ID!, $moves: [NodeMoveInput!]!) {
    moveNodes(workflowId: $workflowId, moves: $moves) { workflow { version } errors { code } }
  }
`);

const Add = graphql(`
  mutation ChangesAddNode($workflowId: ID!, $input: AddNodeInput!) {
    addNode(workflowId: $workflowId, input: $input) { node { id } workflow { version } errors { code } }
  }
`);

const Connect = graphql(`
  mutation ChangesAddEdge($workflowId: ID!, $source: ID!, $target: ID!) {
    addEdge(workflowId: $workflowId, source: $source, target: $target) { workflow { version } errors { code } }
  }
`);

const Remove = graphql(`
  mutation ChangesRemoveNode($workflowId: ID!, $nodeId: ID!) {
    removeNode(workflowId: $workflowId, nodeId: $nodeId) { removedNodeId errors { code } }
  }
`);

const Rename = graphql(`
  mutation ChangesUpdateWorkflow($id: ID!) {
    updateWorkflow(id: $id, input: { name: "renamed elsewhere" }) { workflow { version } errors { code } }
  }
`);

const Delete = graphql(`
  mutation ChangesDeleteWorkflow($id: ID!) { deleteWorkflow(id: $id) { deletedWorkflowId errors { code } } }
`);

describeEachDatabase(
  "workflowChanged",
  (suite) => {
    let api: TestApp | undefined;
    afterEach(async () => {
      await api?.close();
      api = undefined;
    });

    test("a subscriber hears of every committed edit by another client, in version order, and of none refused", async () => {
      // in ──▶ out, then: + generation-1, in ──▶ generation-1, (refused generation-1 ──▶ out), − generation-1, rename, delete
      api = await startTestApp(suite.db());
      const workflowId = await seedWorkflow(suite.db(), arrows(["in->out"]));
      const unrelated = await seedWorkflow(suite.db(), arrows(["in->out"]));
      const editor = api.admin.withKey(api.adminKey);
      const ws = api.admin.ws({ lazy: false });
      const changes = api.admin.subscribe(ws, WorkflowChanged, { workflowId });
      // graphql-ws does not acknowledge a subscription: move a node until the subscriber hears of it.
      // Notifications of moves sent before that can still be on their way when it is heard, so the warm-up
      // ends at the notification of the last move sent, whose version the mutation returned.
      let x = 0;
      let baseline = 0;
      while (changes.items.length === 0) {
        const moved = await editor.request(Move, { workflowId, moves: [{ id: "in", x: ++x, y: 0 }] });
        expect(moved.moveNodes.errors).toEqual([]);
        baseline = moved.moveNodes.workflow!.version;
      }
      await changes.until((items) => items.some((item) => item.workflowChanged.version === baseline));
      const warmUp = changes.items.findIndex((item) => item.workflowChanged.version === baseline) + 1;

      await editor.request(Move, { workflowId: unrelated, moves: [{ id: "in", x: 5, y: 5 }] });
      const added = (await editor.request(Add, { workflowId, input: { type: "generation", provider: "offline", model: "echo" } })).addNode;
      const connected = (await editor.request(Connect, { workflowId, source: "in", target: added.node!.id })).addEdge;
      const refused = (await editor.request(Connect, { workflowId, source: added.node!.id, target: "out" })).addEdge;
      const removed = (await editor.request(Remove, { workflowId, nodeId: added.node!.id })).removeNode;
      const renamed = (await editor.request(Rename, { id: workflowId })).updateWorkflow;
      const deleted = (await editor.request(Delete, { id: workflowId })).deleteWorkflow;
      expect([added.errors, connected.errors, removed.errors, renamed.errors, deleted.errors]).toEqual([[], [], [], [], []]);
      expect(refused.errors.map((error) => error.code)).toEqual(["MULTIPLE_PRE"]);

      await changes.until((items) => items.some((item) => item.workflowChanged.deleted));
      changes.dispose();
      await ws.dispose();
      const heard = changes.items.slice(warmUp).map((item) => item.workflowChanged);
      expect(heard.every((change) => change.workflowId === workflowId)).toBe(true);
      expect(heard.map((change) => [change.version, change.deleted])).toEqual([
        [baseline + 1, false],
        [baseline + 2, false],
        [baseline + 3, false],
        [baseline + 4, false],
        [baseline + 5, true],
      ]);
      expect([added.workflow!.version, connected.workflow!.version, renamed.workflow!.version]).toEqual([baseline + 1, baseline + 2, baseline + 4]);
      expect(heard.every((change) => !Number.isNaN(Date.parse(String(change.at))))).toBe(true);
    });
  },
  { modes: ["embedded"] },
);
