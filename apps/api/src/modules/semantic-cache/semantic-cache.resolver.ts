import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { GraphQLContext } from "../../graphql/context.js";
import { PaginationArgs, type Page } from "../common/pagination.js";
import { SemanticCacheScopeInput } from "./semantic-cache.input.js";
import type { SemanticCacheService } from "./semantic-cache.service.js";
import { ClearSemanticCachePayload, SemanticCacheEntryConnection, type SemanticCacheEntryObject } from "./semantic-cache.type.js";

type CacheContext = GraphQLContext<{ semanticCaches: SemanticCacheService }>;

@Resolver()
export class SemanticCacheResolver {
  @Authorized("read")
  @Query(() => SemanticCacheEntryConnection, { description: "A semantic cache's live entries, newest first." })
  semanticCacheEntries(
    @Arg("scope", () => SemanticCacheScopeInput) scope: SemanticCacheScopeInput,
    @Args(() => PaginationArgs) args: PaginationArgs,
    @Ctx() context: CacheContext,
  ): Promise<Page<SemanticCacheEntryObject>> {
    return context.services.semanticCaches.list(scope, args);
  }

  @Authorized("write")
  @Mutation(() => ClearSemanticCachePayload, { description: "Deletes every entry of a semantic cache; the next lookups miss." })
  async clearSemanticCache(@Arg("scope", () => SemanticCacheScopeInput) scope: SemanticCacheScopeInput, @Ctx() context: CacheContext): Promise<ClearSemanticCachePayload> {
    const outcome = await context.services.semanticCaches.clear(scope);
    return outcome.ok ? { cleared: outcome.value, errors: [] } : { cleared: null, errors: outcome.errors };
  }
}
