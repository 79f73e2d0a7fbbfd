import { Field, ObjectType } from "type-graphql";
import { MutationPayload } from "../../errors/user-error.type.js";

@ObjectType({ description: "A stored secret, named in settings as {secret.NAME}. Its value is never returned." })
export class Secret {
  @Field(() => String)
  name!: string;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date, { description: "When the value was last set (createSecret on an existing name replaces it)." })
  updatedAt!: Date;
}

@ObjectType({ implements: MutationPayload })
export class CreateSecretPayload extends MutationPayload {
  @Field(() => Secret, { nullable: true })
  secret!: Secret | null;
}

@ObjectType({ implements: MutationPayload })
export class DeleteSecretPayload extends MutationPayload {
  @Field(() => String, { nullable: true, description: "The name of the deleted secret." })
  name!: string | null;
}
