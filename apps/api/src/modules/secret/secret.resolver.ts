import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { GraphQLContext } from "../../graphql/context.js";
import { CreateSecretPayload, DeleteSecretPayload, Secret } from "./secret.type.js";
import type { SecretService } from "./secret.service.js";

/** The services these resolvers reach. */
type SecretContext = GraphQLContext<{ secrets: SecretService }>;

@Resolver()
export class SecretResolver {
  @Authorized("admin")
  @Query(() => [Secret], { description: "Stored secrets by name. Their values are never returned." })
  secrets(@Ctx() context: SecretContext): Promise<Secret[]> {
    return context.services.secrets.list();
  }

  @Authorized("admin")
  @Mutation(() => CreateSecretPayload, { description: "Stores a secret, sealed with WEFT_SECRET_KEY; an existing secret of that name gets the new value." })
  async createSecret(
    @Arg("name", () => String) name: string,
    @Arg("value", () => String) value: string,
    @Ctx() context: SecretContext,
  ): Promise<CreateSecretPayload> {
    const outcome = await context.services.secrets.create(name, value);
    return outcome.ok ? { secret: outcome.value, errors: [] } : { secret: null, errors: outcome.errors };
  }

  @Authorized("admin")
  @Mutation(() => DeleteSecretPayload, { description: "Deletes a secret; settings that name it fail until it is created again." })
  async deleteSecret(@Arg("name", () => String) name: string, @Ctx() context: SecretContext): Promise<DeleteSecretPayload> {
    const outcome = await context.services.secrets.delete(name);
    return outcome.ok ? { name: outcome.value, errors: [] } : { name: null, errors: outcome.errors };
  }
}
