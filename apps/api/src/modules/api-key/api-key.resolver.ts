import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import type { GraphQLContext } from "../../graphql/context.js";
import { CreateApiKeyInput } from "./api-key.input.js";
import { ApiKey, CreateApiKeyPayload, RevokeApiKeyPayload } from "./api-key.type.js";
import type { ApiKeyService } from "./api-key.service.js";

/** The services these resolvers reach. */
type ApiKeyContext = GraphQLContext<{ apiKeys: ApiKeyService }>;

@Resolver()
export class ApiKeyResolver {
  @Authorized("admin")
  @Query(() => [ApiKey], { description: "API keys, newest first. The keys themselves are never returned." })
  apiKeys(
    @Arg("includeRevoked", () => Boolean, { defaultValue: false }) includeRevoked: boolean,
    @Ctx() context: ApiKeyContext,
  ): Promise<ApiKey[]> {
    return context.services.apiKeys.list(includeRevoked);
  }

  @Authorized("admin")
  @Mutation(() => CreateApiKeyPayload, { description: "Creates a key; `key` is shown only in this response." })
  async createApiKey(
    @Arg("input", () => CreateApiKeyInput) input: CreateApiKeyInput,
    @Ctx() context: ApiKeyContext,
  ): Promise<CreateApiKeyPayload> {
    const outcome = await context.services.apiKeys.create(input);
    return outcome.ok
      ? { apiKey: outcome.value.apiKey, key: outcome.value.key, errors: [] }
      : { apiKey: null, key: null, errors: outcome.errors };
  }

  @Authorized("admin")
  @Mutation(() => RevokeApiKeyPayload, { description: "Revokes a key at once; requests with it are refused." })
  async revokeApiKey(
    @Arg("id", () => ID) id: string,
    @Ctx() context: ApiKeyContext,
  ): Promise<RevokeApiKeyPayload> {
    const outcome = await context.services.apiKeys.revoke(id);
    return outcome.ok ? { apiKey: outcome.value, errors: [] } : { apiKey: null, errors: outcome.errors };
  }
}
