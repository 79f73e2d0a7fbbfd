import { Arg, Args, ArgsType, Authorized, Ctx, Field, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import type { GraphQLContext } from "../../graphql/context.js";
import { PaginationArgs, type Page } from "../common/pagination.js";
import type { ThreadService } from "./thread.service.js";
import { DeleteThreadPayload, ThreadConnection, ThreadMessageConnection, ThreadObject, type ThreadMessageObject } from "./thread.type.js";

type ThreadContext = GraphQLContext<{ threads: ThreadService }>;

@ArgsType()
class ThreadMessagesArgs extends PaginationArgs {
  @Field(() => Boolean, { nullable: true, description: "Newest first (default: oldest first)." })
  newestFirst?: boolean | null;
}

@Resolver(() => ThreadObject)
export class ThreadResolver {
  @Authorized("read")
  @Query(() => ThreadConnection, { description: "A workflow's threads, newest first." })
  threads(
    @Arg("workflowId", () => ID) workflowId: string,
    @Args(() => PaginationArgs) args: PaginationArgs,
    @Ctx() context: ThreadContext,
  ): Promise<Page<ThreadObject>> {
    return context.services.threads.list(workflowId, args);
  }

  @Authorized("read")
  @Query(() => ThreadObject, { nullable: true, description: "A thread with its messages, runs and state; null if it does not exist." })
  thread(@Arg("id", () => ID) id: string, @Ctx() context: ThreadContext): Promise<ThreadObject | null> {
    return context.services.threads.get(id);
  }

  @FieldResolver(() => ThreadMessageConnection, { description: "Its messages (a completed run's question, then its answer), oldest first unless newestFirst." })
  messages(@Root() thread: ThreadObject, @Args(() => ThreadMessagesArgs) args: ThreadMessagesArgs, @Ctx() context: ThreadContext): Promise<Page<ThreadMessageObject>> {
    return context.services.threads.messages(thread.id, args);
  }

  @FieldResolver(() => Boolean, { description: "A run of the thread is queued or running: another run on it is refused with THREAD_BUSY until it ends." })
  busy(@Root() thread: ThreadObject, @Ctx() context: ThreadContext): Promise<boolean> {
    return context.services.threads.busy(thread.id);
  }

  @Authorized("write")
  @Mutation(() => DeleteThreadPayload, { description: "Deletes a thread and its messages; its runs stay. Refused with THREAD_BUSY while a run of it is in progress." })
  async deleteThread(@Arg("id", () => ID) id: string, @Ctx() context: ThreadContext): Promise<DeleteThreadPayload> {
    const outcome = await context.services.threads.delete(id);
    return outcome.ok ? { id: outcome.value, errors: [] } : { id: null, errors: outcome.errors };
  }
}
