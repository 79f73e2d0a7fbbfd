import { Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import type { GraphQLContext } from "../../graphql/context.js";
import { WorkflowObject } from "../workflow/index.js";
import type { RunService } from "./run.service.js";
import { RunObject } from "./run.type.js";

type RunContext = GraphQLContext<{ runs: RunService }>;

/** Run fields of a workflow: they belong to the run module, which depends on the workflow module (not the reverse). */
@Resolver(() => WorkflowObject)
export class WorkflowRunsResolver {
  @FieldResolver(() => RunObject, { nullable: true, description: "The most recently started run, whatever its status." })
  lastRun(@Root() workflow: WorkflowObject, @Ctx() context: RunContext): Promise<RunObject | null> {
    return context.services.runs.lastRun(workflow.id);
  }
}
