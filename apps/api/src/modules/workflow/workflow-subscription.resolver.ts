import { Arg, Authorized, ID, Resolver, Root, Subscription, type SubscribeResolverData } from "type-graphql";
import { AppError } from "../../errors/app-error.js";
import { hasScope } from "../../auth/auth-info.js";
import type { GraphQLContext } from "../../graphql/context.js";
import type { WorkflowChangedMessage } from "../../pubsub.js";
import { WorkflowChangeObject } from "./workflow-changed.type.js";
import type { WorkflowService } from "./workflow.service.js";

/** The services these resolvers reach. */
type WorkflowContext = GraphQLContext<{ workflows: WorkflowService }>;

type Data<Args> = SubscribeResolverData<unknown, Args, WorkflowContext>;

@Resolver()
export class WorkflowSubscriptionResolver {
  @Authorized("read")
  @Subscription(() => WorkflowChangeObject, {
    description:
      "Each committed change of one workflow, from now on (nothing is replayed): read the workflow after " +
      "subscribing, then refetch whenever a version newer than yours arrives.",
    subscribe: async ({ args, context }: Data<{ workflowId: string }>) => {
      // The connection was authenticated in onConnect; the scope is checked per subscription.
      if (!context.auth.authenticated) throw new AppError("UNAUTHENTICATED", "an API key is required");
      if (!hasScope(context.auth, "read")) throw new AppError("FORBIDDEN", "this API key lacks the scope read");
      return context.services.workflows.streamChanges(args.workflowId);
    },
  })
  workflowChanged(
    @Root() message: WorkflowChangedMessage,
    @Arg("workflowId", () => ID) _workflowId: string,
  ): WorkflowChangeObject {
    return { workflowId: message.workflowId, version: message.version, at: new Date(message.at), deleted: message.deleted };
  }
}
