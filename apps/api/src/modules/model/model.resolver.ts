import { Authorized, Ctx, Query, Resolver } from "type-graphql";
import type { GraphQLContext } from "../../graphql/context.js";
import { ModelProviderObject } from "./model.type.js";
import type { ModelCatalogService } from "./model-catalog.service.js";

/** The services these resolvers reach. */
type ModelContext = GraphQLContext<{ models: ModelCatalogService }>;

@Resolver()
export class ModelResolver {
  @Authorized("read")
  @Query(() => [ModelProviderObject], {
    description: "Configured LLM providers and their models: what model nodes may name.",
  })
  models(@Ctx() context: ModelContext): ModelProviderObject[] {
    return context.services.models.providers();
  }
}
