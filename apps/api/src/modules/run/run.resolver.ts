import { Arg, Args, Authorized, Ctx, Extensions, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import { ASSUMED_LIST_LENGTH, EXPENSIVE, listCostByArgument, unboundedListCost } from "../common/field-cost.js";
import { parsePreparedRun } from "@weft/engine";
import type { GraphQLContext } from "../../graphql/context.js";
import { graphEdgeObjects, graphNodeObjects, WorkflowEdgeObject, WorkflowNodeObject } from "../workflow/index.js";
import { NodeRunsArgs, RunsArgs, RunWorkflowInput } from "./run.input.js";
import { MAX_NODE_RUNS_PER_READ } from "./node-run-page.js";
import { toRunEventView, type RunEventView } from "./run-event.mapper.js";
import { RunEventInterface } from "./run-event.type.js";
import { MAX_EVENTS_PER_READ } from "./run.service.js";
import {
  CancelRunPayload,
  DeleteRunPayload,
  NodeRunObject,
  RunConnection,
  RunObject,
  RunWorkflowPayload,
} from "./run.type.js";
import type { RunService } from "./run.service.js";

/** The services these resolvers reach. */
type RunContext = GraphQLContext<{ runs: RunService }>;

@Resolver(() => RunObject)
export class RunResolver {
  @Authorized("read")
  @Extensions(EXPENSIVE)
  @Query(() => RunObject, { nullable: true })
  run(@Arg("id", () => ID) id: string, @Ctx() context: RunContext): Promise<RunObject | null> {
    return context.services.runs.get(id);
  }

  @Authorized("read")
  @Query(() => RunConnection, { description: "Newest first; filter by workflow, status and creation time." })
  runs(@Args(() => RunsArgs) args: RunsArgs, @Ctx() context: RunContext): Promise<InstanceType<typeof RunConnection>> {
    return context.services.runs.list(args);
  }

  @Authorized("run")
  @Mutation(() => RunWorkflowPayload, {
    description:
      "Starts a run (QUEUED) of a published version (input.version; default the latest) or of the draft, after checking " +
      "its whole graph; follow it with runEvents.",
  })
  async runWorkflow(
    @Arg("workflowId", () => ID) workflowId: string,
    @Arg("input", () => RunWorkflowInput, { nullable: true }) input: RunWorkflowInput | null,
    @Ctx() context: RunContext,
  ): Promise<RunWorkflowPayload> {
    const outcome = await context.services.runs.start(workflowId, input, context.auth, context.caller);
    return outcome.ok ? { run: outcome.value, errors: [] } : { run: null, errors: outcome.errors };
  }

  @Authorized("run")
  @Mutation(() => RunWorkflowPayload, {
    description: "Starts a new run of what a run executed — its published version, or the draft as it is now — with the same request and inputs.",
  })
  async rerunRun(@Arg("id", () => ID) id: string, @Ctx() context: RunContext): Promise<RunWorkflowPayload> {
    const outcome = await context.services.runs.rerun(id, context.auth, context.caller);
    return outcome.ok ? { run: outcome.value, errors: [] } : { run: null, errors: outcome.errors };
  }

  @Authorized("write")
  @Mutation(() => DeleteRunPayload, {
    description:
      "Deletes a finished run with everything it stored (events, node runs); thread messages it added stay in their thread, unlinked. " +
      "An active run is refused with RUN_ACTIVE.",
  })
  async deleteRun(@Arg("id", () => ID) id: string, @Ctx() context: RunContext): Promise<DeleteRunPayload> {
    const outcome = await context.services.runs.delete(id);
    return outcome.ok ? { deletedRunId: outcome.value, errors: [] } : { deletedRunId: null, errors: outcome.errors };
  }

  @FieldResolver(() => RunObject, { nullable: true, description: "The run this one re-ran (rerunRun)." })
  rerunOf(@Root() run: RunObject, @Ctx() context: RunContext): Promise<RunObject | null> {
    return run.rerunOfId ? context.services.runs.get(run.rerunOfId) : Promise.resolve(null);
  }

  @Authorized("run")
  @Mutation(() => CancelRunPayload, { description: "Aborts an active run; its in-flight model calls are aborted." })
  async cancelRun(@Arg("id", () => ID) id: string, @Ctx() context: RunContext): Promise<CancelRunPayload> {
    const outcome = await context.services.runs.cancel(id);
    return outcome.ok ? { run: outcome.value, errors: [] } : { run: null, errors: outcome.errors };
  }

  @Extensions(EXPENSIVE)
  @FieldResolver(() => [WorkflowNodeObject], { description: "The graph's nodes as the run executed them (from its snapshot).", complexity: unboundedListCost })
  nodes(@Root() run: RunObject): WorkflowNodeObject[] {
    return graphNodeObjects(parsePreparedRun(run.snapshot).workflow);
  }

  @Extensions(EXPENSIVE)
  @FieldResolver(() => [WorkflowEdgeObject], { description: "The graph's edges as the run executed them, in their order.", complexity: unboundedListCost })
  edges(@Root() run: RunObject): WorkflowEdgeObject[] {
    return graphEdgeObjects(parsePreparedRun(run.snapshot).workflow);
  }

  @Extensions(EXPENSIVE)
  @FieldResolver(() => [NodeRunObject], {
    description: `One per (node, invocation), by start time (not started last), node id and invocation; at most ${MAX_NODE_RUNS_PER_READ} at a time, paged with \`after\` (a node run's \`cursor\`).`,
    // Without `first`, priced as the unbounded list it was (the admin UI's run page asks so); the response budget bounds the bytes.
    complexity: listCostByArgument("first", ASSUMED_LIST_LENGTH, MAX_NODE_RUNS_PER_READ),
  })
  nodeRuns(@Root() run: RunObject, @Args(() => NodeRunsArgs) args: NodeRunsArgs, @Ctx() context: RunContext): Promise<NodeRunObject[]> {
    return context.services.runs.nodeRuns(run.id, args);
  }

  @Extensions(EXPENSIVE)
  @FieldResolver(() => [RunEventInterface], {
    description: `Stored events after afterSeq, at most ${MAX_EVENTS_PER_READ}.`,
    complexity: listCostByArgument("limit", MAX_EVENTS_PER_READ, MAX_EVENTS_PER_READ),
  })
  async events(
    @Root() run: RunObject,
    @Arg("afterSeq", () => Int, { defaultValue: 0 }) afterSeq: number,
    @Arg("limit", () => Int, { defaultValue: MAX_EVENTS_PER_READ }) limit: number,
    @Ctx() context: RunContext,
  ): Promise<RunEventView[]> {
    const messages = await context.services.runs.events(run.id, afterSeq, limit);
    return messages.map(toRunEventView);
  }
}
