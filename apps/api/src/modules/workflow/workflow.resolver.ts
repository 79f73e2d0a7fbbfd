import { Arg, Args, Authorized, Ctx, Extensions, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import { EXPENSIVE, unboundedListCost } from "../common/field-cost.js";
import type { GraphQLContext } from "../../graphql/context.js";
import { AppError } from "../../errors/app-error.js";
import { PaginationArgs, type Page } from "../common/pagination.js";
import { WorkflowConnection } from "./workflow-connection.type.js";
import { CreateWorkflowInput, UpdateWorkflowInput } from "./workflow.input.js";
import { DeleteWorkflowPayload, ValidationReport, WorkflowPayload } from "./workflow-payload.type.js";
import { WorkflowEdgeObject, WorkflowNodeObject, WorkflowObject } from "./workflow.type.js";
import { NodeTypeObject } from "./node-type.type.js";
import { toNodeTypeObject } from "./node-type.mapper.js";
import { violationToUserError } from "../../errors/user-error.type.js";
import type { WorkflowService } from "./workflow.service.js";

/** The services these resolvers reach. */
type WorkflowContext = GraphQLContext<{ workflows: WorkflowService }>;

/**
 * Workflows as a whole. Graph edits live in WorkflowGraphResolver; export and import, which may name or
 * publish a version, in the workflow-version module.
 */
@Resolver(() => WorkflowObject)
export class WorkflowResolver {
  @Authorized("read")
  @Query(() => WorkflowConnection, { description: "Workflows, most recently updated first." })
  async workflows(
    @Args(() => PaginationArgs) page: PaginationArgs,
    @Arg("search", () => String, { nullable: true, description: "Part of the name, any case." }) search: string | null,
    @Ctx() context: WorkflowContext,
  ): Promise<Page<WorkflowObject>> {
    return context.services.workflows.list({ first: page.first, after: page.after, search });
  }

  @Authorized("read")
  @Extensions(EXPENSIVE)
  @Query(() => WorkflowObject, { nullable: true })
  workflow(@Arg("id", () => ID) id: string, @Ctx() context: WorkflowContext): Promise<WorkflowObject | null> {
    return context.services.workflows.get(id);
  }

  @Authorized("read")
  @Extensions(EXPENSIVE)
  @Query(() => ValidationReport, {
    description: "Checks the stored graph against every rule (edit-time and run-time), listing all violations.",
  })
  async validateWorkflow(@Arg("id", () => ID) id: string, @Ctx() context: WorkflowContext): Promise<ValidationReport> {
    const violations = await context.services.workflows.validate(id);
    if (!violations) throw new AppError("NOT_FOUND", `workflow "${id}" does not exist`, { extensions: { id } });
    return { valid: violations.length === 0, violations: violations.map(violationToUserError) };
  }

  @Authorized("read")
  @Query(() => [NodeTypeObject], { description: "The node types a workflow may use, with their connection rules." })
  nodeTypes(@Ctx() context: WorkflowContext): NodeTypeObject[] {
    return context.services.workflows.nodeTypes().map(toNodeTypeObject);
  }

  @Authorized("write")
  @Mutation(() => WorkflowPayload, { description: "A new workflow: one input node connected to one output node." })
  async createWorkflow(
    @Arg("input", () => CreateWorkflowInput) input: CreateWorkflowInput,
    @Ctx() context: WorkflowContext,
  ): Promise<WorkflowPayload> {
    return toPayload(await context.services.workflows.create(input));
  }

  @Authorized("write")
  @Mutation(() => WorkflowPayload, { description: "Changes settings; allowed while a run is active (runs use their snapshot)." })
  async updateWorkflow(
    @Arg("id", () => ID) id: string,
    @Arg("input", () => UpdateWorkflowInput) input: UpdateWorkflowInput,
    @Ctx() context: WorkflowContext,
  ): Promise<WorkflowPayload> {
    return toPayload(await context.services.workflows.update(id, input));
  }

  @Authorized("write")
  @Mutation(() => DeleteWorkflowPayload, { description: "Deletes a workflow with its published versions and runs; refused while any of its runs is active." })
  async deleteWorkflow(@Arg("id", () => ID) id: string, @Ctx() context: WorkflowContext): Promise<DeleteWorkflowPayload> {
    const outcome = await context.services.workflows.delete(id);
    return outcome.ok ? { deletedWorkflowId: outcome.value, errors: [] } : { deletedWorkflowId: null, errors: outcome.errors };
  }

  @Authorized("write")
  @Mutation(() => WorkflowPayload, { description: 'Copies settings, nodes and edges; named "<name> (copy)" unless given.' })
  async duplicateWorkflow(
    @Arg("id", () => ID) id: string,
    @Arg("name", () => String, { nullable: true }) name: string | null,
    @Ctx() context: WorkflowContext,
  ): Promise<WorkflowPayload> {
    return toPayload(await context.services.workflows.duplicate(id, name));
  }

  @Extensions(EXPENSIVE)
  @FieldResolver(() => [WorkflowNodeObject], { description: "Nodes in creation order.", complexity: unboundedListCost })
  async nodes(@Root() workflow: WorkflowObject, @Ctx() context: WorkflowContext): Promise<WorkflowNodeObject[]> {
    return (await graphOf(workflow, context)).nodes;
  }

  @Extensions(EXPENSIVE)
  @FieldResolver(() => [WorkflowEdgeObject], {
    description: "Edges in creation order (their `order`).",
    complexity: unboundedListCost,
  })
  async edges(@Root() workflow: WorkflowObject, @Ctx() context: WorkflowContext): Promise<WorkflowEdgeObject[]> {
    return (await graphOf(workflow, context)).edges;
  }

  @FieldResolver(() => ID, {
    nullable: true,
    description: "The QUEUED or RUNNING run of the draft holding the graph, if any (runs of published versions never hold it).",
  })
  activeRunId(@Root() workflow: WorkflowObject, @Ctx() context: WorkflowContext): Promise<string | null> {
    return context.services.workflows.activeRunId(workflow.id);
  }
}

const pendingGraphs = new WeakMap<WorkflowObject, Promise<NonNullable<WorkflowObject["graph"]>>>();

/** Nodes and edges of one workflow object come from one read, so they always belong together. */
function graphOf(workflow: WorkflowObject, context: WorkflowContext): Promise<NonNullable<WorkflowObject["graph"]>> {
  if (workflow.graph) return Promise.resolve(workflow.graph);
  const pending = pendingGraphs.get(workflow) ?? context.services.workflows.getGraph(workflow.id);
  pendingGraphs.set(workflow, pending);
  return pending;
}

function toPayload(outcome: { ok: true; value: WorkflowObject } | { ok: false; errors: WorkflowPayload["errors"] }): WorkflowPayload {
  return outcome.ok ? { workflow: outcome.value, errors: [] } : { workflow: null, errors: outcome.errors };
}
