import { Arg, Authorized, ID, Resolver, Root, Subscription, type SubscribeResolverData } from "type-graphql";
import { hasScope } from "../../auth/auth-info.js";
import { AppError } from "../../errors/app-error.js";
import type { GraphQLContext } from "../../graphql/context.js";
import type { IngestionProgressMessage } from "../../pubsub.js";
import { IngestionProgressObject } from "./knowledge-base.type.js";
import type { KnowledgeBaseService } from "./knowledge-base.service.js";

/** The services these resolvers reach. */
type KnowledgeBaseContext = GraphQLContext<{ knowledgeBases: KnowledgeBaseService }>;

type Data<Args> = SubscribeResolverData<unknown, Args, KnowledgeBaseContext>;

@Resolver()
export class KnowledgeBaseSubscriptionResolver {
  @Authorized("read")
  @Subscription(() => IngestionProgressObject, {
    description:
      "Ingestion progress of a knowledge base (addDocuments, reindexKnowledgeBase) until you unsubscribe: first the " +
      "current state of each PENDING or INDEXING document, then every step live.",
    subscribe: async ({ args, context }: Data<{ knowledgeBaseId: string }>) => {
      if (!context.auth.authenticated) throw new AppError("UNAUTHENTICATED", "an API key is required");
      if (!hasScope(context.auth, "read")) throw new AppError("FORBIDDEN", "this API key lacks the scope read");
      return context.services.knowledgeBases.streamProgress(args.knowledgeBaseId);
    },
  })
  ingestionProgress(
    @Root() message: IngestionProgressMessage,
    @Arg("knowledgeBaseId", () => ID) _knowledgeBaseId: string,
  ): IngestionProgressObject {
    return { ...message, at: new Date(message.at) };
  }
}
