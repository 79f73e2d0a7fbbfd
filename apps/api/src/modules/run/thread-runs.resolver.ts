import { Args, Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import type { GraphQLContext } from "../../graphql/context.js";
import { PaginationArgs, type Page } from "../common/pagination.js";
import { ThreadObject } from "../thread/index.js";
import type { RunService } from "./run.service.js";
import { RunConnection, type RunObject } from "./run.type.js";

type RunContext = GraphQLContext<{ runs: RunService }>;

/** A thread's runs: they belong to the run module, which depends on the thread module (not the reverse). */
@Resolver(() => ThreadObject)
export class ThreadRunsResolver {
  @FieldResolver(() => RunConnection, { description: "The thread's runs, newest first." })
  runs(@Root() thread: ThreadObject, @Args(() => PaginationArgs) args: PaginationArgs, @Ctx() context: RunContext): Promise<Page<RunObject>> {
    return context.services.runs.list({ ...args, threadId: thread.id });
  }
}
