import { Arg, Args, Authorized, Ctx, ID, Mutation, Query, Resolver, Root, Subscription, type SubscribeResolverData } from "type-graphql";
import { hasScope } from "../../auth/auth-info.js";
import { AppError } from "../../errors/app-error.js";
import type { GraphQLContext } from "../../graphql/context.js";
import { CompleteHumanTaskInput, HumanTasksArgs } from "./human-task.input.js";
import type { HumanTaskService } from "./human-task.service.js";
import { CompleteHumanTaskPayload, HumanTaskConnection, HumanTaskObject } from "./human-task.type.js";

/** The services these resolvers reach. */
type HumanTaskContext = GraphQLContext<{ humanTasks: HumanTaskService }>;

@Resolver(() => HumanTaskObject)
export class HumanTaskResolver {
  @Authorized("read")
  @Query(() => HumanTaskObject, { nullable: true })
  humanTask(@Arg("id", () => ID) id: string, @Ctx() context: HumanTaskContext): Promise<HumanTaskObject | null> {
    return context.services.humanTasks.get(id);
  }

  @Authorized("read")
  @Query(() => HumanTaskConnection, { description: "Tasks for people, newest first; filter by status (OPEN: the inbox), workflow and assignee." })
  humanTasks(@Args(() => HumanTasksArgs) args: HumanTasksArgs, @Ctx() context: HumanTaskContext): Promise<InstanceType<typeof HumanTaskConnection>> {
    return context.services.humanTasks.list(args);
  }

  @Authorized("run")
  @Mutation(() => CompleteHumanTaskPayload, {
    description:
      "Completes an open task with one of its actions, data matching its form and a comment; its run goes on through that action's port. " +
      "Refused with HUMAN_ACTION_UNKNOWN, HUMAN_INPUT_INVALID (path: the data's offending field) or HUMAN_TASK_CLOSED, changing nothing.",
  })
  async completeHumanTask(
    @Arg("id", () => ID) id: string,
    @Arg("input", () => CompleteHumanTaskInput) input: CompleteHumanTaskInput,
    @Ctx() context: HumanTaskContext,
  ): Promise<CompleteHumanTaskPayload> {
    const outcome = await context.services.humanTasks.complete(id, input, context.auth);
    return outcome.ok ? { task: outcome.value, errors: [] } : { task: null, errors: outcome.errors };
  }

  @Authorized("read")
  @Subscription(() => HumanTaskObject, {
    description: "Each task as it is opened, completed, expired or cancelled: every task, or only those of one workflow's runs.",
    subscribe: async ({ args, context }: SubscribeResolverData<unknown, { workflowId?: string | null }, HumanTaskContext>) => {
      if (!context.auth.authenticated) throw new AppError("UNAUTHENTICATED", "an API key is required");
      if (!hasScope(context.auth, "read")) throw new AppError("FORBIDDEN", "this API key lacks the scope read");
      return context.services.humanTasks.stream(args.workflowId ?? null);
    },
  })
  humanTasksChanged(@Root() task: HumanTaskObject, @Arg("workflowId", () => ID, { nullable: true }) _workflowId: string | null): HumanTaskObject {
    return task;
  }
}
