import { Arg, Authorized, Ctx, ID, Mutation, Resolver } from "type-graphql";
import type { GraphQLContext } from "../../graphql/context.js";
import { AddNodeInput, NodeMoveInput, UpdateNodeInput } from "./workflow.input.js";
import { LoopInput } from "./workflow-settings.input.js";
import { EdgePayload, NodePayload, RemoveEdgePayload, RemoveNodePayload, WorkflowPayload } from "./workflow-payload.type.js";
import { toEdgeObject, toNodeObject, toWorkflowObject } from "./workflow.mapper.js";
import type { WorkflowService } from "./workflow.service.js";

/** The services these resolvers reach. */
type WorkflowContext = GraphQLContext<{ workflows: WorkflowService }>;

/**
 * Node and edge edits. Each is one transaction holding the workflow's row lock; refusals (rule
 * violations, LOCKED_WHILE_RUNNING, bad input) come back in `errors` and change nothing.
 */
@Resolver()
export class WorkflowGraphResolver {
  @Authorized("write")
  @Mutation(() => NodePayload, { description: "Adds a node; its id is chosen by the server when not given." })
  async addNode(
    @Arg("workflowId", () => ID) workflowId: string,
    @Arg("input", () => AddNodeInput) input: AddNodeInput,
    @Ctx() context: WorkflowContext,
  ): Promise<NodePayload> {
    const outcome = await context.services.workflows.nodes.addNode(workflowId, input);
    if (!outcome.ok) return { workflow: null, node: null, errors: outcome.errors };
    return { workflow: toWorkflowObject(outcome.value.workflow), node: toNodeObject(outcome.value.node), errors: [] };
  }

  @Authorized("write")
  @Mutation(() => NodePayload, {
    description: "Changes a node's attributes or position (null clears an attribute); its type is fixed.",
  })
  async updateNode(
    @Arg("workflowId", () => ID) workflowId: string,
    @Arg("nodeId", () => ID) nodeId: string,
    @Arg("input", () => UpdateNodeInput) input: UpdateNodeInput,
    @Ctx() context: WorkflowContext,
  ): Promise<NodePayload> {
    const outcome = await context.services.workflows.nodes.updateNode(workflowId, nodeId, input);
    if (!outcome.ok) return { workflow: null, node: null, errors: outcome.errors };
    return { workflow: toWorkflowObject(outcome.value.workflow), node: toNodeObject(outcome.value.node), errors: [] };
  }

  @Authorized("write")
  @Mutation(() => WorkflowPayload, { description: "Saves canvas positions in bulk; layout only, allowed during a run." })
  async moveNodes(
    @Arg("workflowId", () => ID) workflowId: string,
    @Arg("moves", () => [NodeMoveInput]) moves: NodeMoveInput[],
    @Ctx() context: WorkflowContext,
  ): Promise<WorkflowPayload> {
    const outcome = await context.services.workflows.nodes.moveNodes(workflowId, moves);
    if (!outcome.ok) return { workflow: null, errors: outcome.errors };
    return { workflow: toWorkflowObject(outcome.value.workflow), errors: [] };
  }

  @Authorized("write")
  @Mutation(() => RemoveNodePayload, { description: "Removes a node and every edge touching it." })
  async removeNode(
    @Arg("workflowId", () => ID) workflowId: string,
    @Arg("nodeId", () => ID) nodeId: string,
    @Ctx() context: WorkflowContext,
  ): Promise<RemoveNodePayload> {
    const outcome = await context.services.workflows.nodes.removeNode(workflowId, nodeId);
    if (!outcome.ok) return { workflow: null, removedNodeId: null, removedEdgeIds: [], errors: outcome.errors };
    const { workflow, removedNodeId, removedEdgeIds } = outcome.value;
    return { workflow: toWorkflowObject(workflow), removedNodeId, removedEdgeIds, errors: [] };
  }

  @Authorized("write")
  @Mutation(() => EdgePayload, {
    description:
      "Connects source → target, from one of the source's ports (a router's case, label or verdict; default `out`), or as a loop edge closing a declared loop; refused when a connection rule forbids it.",
  })
  async addEdge(
    @Arg("workflowId", () => ID) workflowId: string,
    @Arg("source", () => ID) source: string,
    @Arg("target", () => ID) target: string,
    @Arg("sourcePort", () => String, { nullable: true, description: "The source's output port; absent or null: `out`." }) sourcePort: string | null,
    @Arg("loop", () => String, { nullable: true, description: "Makes it a loop edge of this declared loop (Workflow.loops); loop edges carry no data." })
    loop: string | null,
    @Arg("declareLoop", () => LoopInput, {
      nullable: true,
      description: "Declares a new loop (added to Workflow.loops) in the same step as this, its first loop edge; `loop` may then be left out. Both are stored or neither.",
    })
    declareLoop: LoopInput | null,
    @Ctx() context: WorkflowContext,
  ): Promise<EdgePayload> {
    const outcome = await context.services.workflows.edges.addEdge(workflowId, source, target, { sourcePort, loop, declareLoop });
    if (!outcome.ok) return { workflow: null, edge: null, errors: outcome.errors };
    return { workflow: toWorkflowObject(outcome.value.workflow), edge: toEdgeObject(outcome.value.edge), errors: [] };
  }

  @Authorized("write")
  @Mutation(() => RemoveEdgePayload)
  async removeEdge(
    @Arg("workflowId", () => ID) workflowId: string,
    @Arg("edgeId", () => ID) edgeId: string,
    @Ctx() context: WorkflowContext,
  ): Promise<RemoveEdgePayload> {
    const outcome = await context.services.workflows.edges.removeEdge(workflowId, edgeId);
    if (!outcome.ok) return { workflow: null, removedEdgeId: null, errors: outcome.errors };
    return { workflow: toWorkflowObject(outcome.value.workflow), removedEdgeId: outcome.value.removedEdgeId, errors: [] };
  }
}
