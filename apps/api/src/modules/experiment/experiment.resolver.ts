import { Arg, Args, Authorized, Ctx, FieldResolver, Float, ID, Mutation, Query, Resolver, Root, Subscription, type SubscribeResolverData } from "type-graphql";
import { hasScope } from "../../auth/auth-info.js";
import { AppError } from "../../errors/app-error.js";
import type { GraphQLContext } from "../../graphql/context.js";
import type { ExperimentProgressMessage } from "../../pubsub.js";
import { PaginationArgs, type Page } from "../common/pagination.js";
import { valueOrThrow } from "../../errors/outcome.js";
import { StartExperimentInput } from "./experiment.input.js";
import type { ExperimentService } from "./experiment.service.js";
import {
  ExperimentComparisonObject,
  ExperimentConnection,
  ExperimentObject,
  ExperimentPayload,
  ExperimentProgressObject,
  ExperimentResultConnection,
  ExperimentSummaryObject,
  type ExperimentResultObject,
} from "./experiment.type.js";

type ExperimentContext = GraphQLContext<{ experiments: ExperimentService }>;

@Resolver(() => ExperimentObject)
export class ExperimentResolver {
  @Authorized("read")
  @Query(() => ExperimentObject, { nullable: true })
  experiment(@Arg("id", () => ID) id: string, @Ctx() context: ExperimentContext): Promise<ExperimentObject | null> {
    return context.services.experiments.get(id);
  }

  @Authorized("read")
  @Query(() => ExperimentConnection, { description: "A workflow's experiments, newest first." })
  experiments(@Arg("workflowId", () => ID) workflowId: string, @Args(() => PaginationArgs) args: PaginationArgs, @Ctx() context: ExperimentContext): Promise<Page<ExperimentObject>> {
    return context.services.experiments.list(workflowId, args);
  }

  @Authorized("read")
  @Query(() => ExperimentComparisonObject, { description: "Two experiments on the same dataset row by row (a: the baseline, b: the candidate), regressions and improvements, and both summaries." })
  async compareExperiments(@Arg("a", () => ID) a: string, @Arg("b", () => ID) b: string, @Ctx() context: ExperimentContext): Promise<ExperimentComparisonObject> {
    return valueOrThrow(await context.services.experiments.compare(a, b));
  }

  @Authorized("run")
  @Mutation(() => ExperimentPayload, { description: "Runs a version (or the draft) over every row of a dataset as ordinary runs tagged with the experiment, and scores each row." })
  async startExperiment(@Arg("input", () => StartExperimentInput) input: StartExperimentInput, @Ctx() context: ExperimentContext): Promise<ExperimentPayload> {
    const outcome = await context.services.experiments.start(input);
    return outcome.ok ? { experiment: outcome.value, errors: [] } : { experiment: null, errors: outcome.errors };
  }

  @Authorized("run")
  @Mutation(() => ExperimentPayload, { description: "Stops an experiment: no more rows start, its runs in flight are cancelled; it ends CANCELLED with the results stored so far." })
  async cancelExperiment(@Arg("id", () => ID) id: string, @Ctx() context: ExperimentContext): Promise<ExperimentPayload> {
    const outcome = await context.services.experiments.cancel(id);
    return outcome.ok ? { experiment: outcome.value, errors: [] } : { experiment: null, errors: outcome.errors };
  }

  @FieldResolver(() => Float, { description: "Share of the rows done, 0 to 1." })
  async progress(@Root() experiment: ExperimentObject, @Ctx() context: ExperimentContext): Promise<number> {
    const summary = await context.services.experiments.summary(experiment);
    return experiment.rows === 0 ? 1 : (summary.completed + summary.failed) / experiment.rows;
  }

  @FieldResolver(() => ExperimentSummaryObject)
  summary(@Root() experiment: ExperimentObject, @Ctx() context: ExperimentContext): Promise<ExperimentSummaryObject> {
    return context.services.experiments.summary(experiment);
  }

  @FieldResolver(() => ExperimentResultConnection, { description: "Results in the dataset's row order (first: 1..500, default 50)." })
  results(
    @Root() experiment: ExperimentObject,
    @Args(() => PaginationArgs) args: PaginationArgs,
    @Arg("regressionsOnly", () => Boolean, { nullable: true, description: "Only the rows that regressed (a scorer's pass turned into a fail) against the latest published version: its newest completed experiment on the same dataset revision with the same scorers, as the publish gate compares; none without one." })
    regressionsOnly: boolean | null,
    @Ctx() context: ExperimentContext,
  ): Promise<Page<ExperimentResultObject>> {
    return context.services.experiments.results(experiment, { ...args, regressionsOnly });
  }
}

type Data<Args> = SubscribeResolverData<unknown, Args, ExperimentContext>;

@Resolver()
export class ExperimentSubscriptionResolver {
  @Authorized("read")
  @Subscription(() => ExperimentProgressObject, {
    description: "An experiment's progress: its state now, then after every row, ending with the message that says it finished.",
    subscribe: async ({ args, context }: Data<{ id: string }>) => {
      if (!context.auth.authenticated) throw new AppError("UNAUTHENTICATED", "an API key is required");
      if (!hasScope(context.auth, "read")) throw new AppError("FORBIDDEN", "this API key lacks the scope read");
      const stream = await context.services.experiments.streamProgress(args.id);
      if (!stream) throw new AppError("NOT_FOUND", `experiment "${args.id}" does not exist`);
      return stream;
    },
  })
  experimentProgress(@Root() message: ExperimentProgressMessage, @Arg("id", () => ID) _id: string): ExperimentProgressObject {
    return { ...message, at: new Date(message.at) };
  }
}
