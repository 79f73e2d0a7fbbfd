import { Arg, Authorized, ID, Int, Resolver, Root, Subscription, type SubscribeResolverData } from "type-graphql";
import { AppError } from "../../errors/app-error.js";
import { hasScope } from "../../auth/auth-info.js";
import type { GraphQLContext } from "../../graphql/context.js";
import type { RunEventMessage, RunStatusMessage } from "../../pubsub.js";
import { toRunEventView, type RunEventView } from "./run-event.mapper.js";
import { RunEventInterface } from "./run-event.type.js";
import { RunStatusChangeObject } from "./run.type.js";
import type { RunService } from "./run.service.js";

/** The services these resolvers reach. */
type RunContext = GraphQLContext<{ runs: RunService }>;

type Data<Args> = SubscribeResolverData<unknown, Args, RunContext>;

/** Subscriptions check the scope when subscribing; the connection was authenticated in onConnect. */
function requireRead(context: RunContext): void {
  if (!context.auth.authenticated) throw new AppError("UNAUTHENTICATED", "an API key is required");
  if (!hasScope(context.auth, "read")) throw new AppError("FORBIDDEN", "this API key lacks the scope read");
}

@Resolver()
export class RunSubscriptionResolver {
  @Authorized("read")
  @Subscription(() => RunEventInterface, {
    description:
      "A run's events with seq > afterSeq: stored ones first, then live, with no gap and no duplicate; " +
      "completes after the terminal event. Reconnect with the last seq you saw.",
    subscribe: async ({ args, context }: Data<{ runId: string; afterSeq: number }>) => {
      requireRead(context);
      return context.services.runs.streamEvents(args.runId, args.afterSeq);
    },
  })
  runEvents(
    @Root() message: RunEventMessage,
    @Arg("runId", () => ID) _runId: string,
    @Arg("afterSeq", () => Int, { defaultValue: 0 }) _afterSeq: number,
  ): RunEventView {
    return toRunEventView(message);
  }

  @Authorized("read")
  @Subscription(() => RunStatusChangeObject, {
    description: "Every run status change, or only those of one workflow.",
    subscribe: async ({ args, context }: Data<{ workflowId?: string | null }>) => {
      requireRead(context);
      return context.services.runs.streamStatus(args.workflowId ?? null);
    },
  })
  runStatusChanged(
    @Root() message: RunStatusMessage,
    @Arg("workflowId", () => ID, { nullable: true }) _workflowId: string | null,
  ): RunStatusChangeObject {
    const { runId, workflowId, version, status, at } = message;
    return { runId, workflowId, version, draft: version === null, status, at: new Date(at), deleted: message.deleted === true };
  }
}
