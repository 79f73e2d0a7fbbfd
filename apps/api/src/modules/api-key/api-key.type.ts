import { Field, ID, ObjectType } from "type-graphql";
import { MutationPayload } from "../../errors/user-error.type.js";

@ObjectType({ description: "An API key. The key itself is shown once, by createApiKey; only its hash is stored." })
export class ApiKey {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String, { description: "The key's first characters, to tell keys apart." })
  prefix!: string;

  @Field(() => [String], { description: "read, write, run, admin (admin implies the others)." })
  scopes!: string[];

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date, { nullable: true })
  lastUsedAt!: Date | null;

  @Field(() => Date, { nullable: true })
  revokedAt!: Date | null;
}

@ObjectType({ implements: MutationPayload })
export class CreateApiKeyPayload extends MutationPayload {
  @Field(() => ApiKey, { nullable: true })
  apiKey!: ApiKey | null;

  @Field(() => String, { nullable: true, description: "The secret key. Shown only in this response: store it now." })
  key!: string | null;
}

@ObjectType({ implements: MutationPayload })
export class RevokeApiKeyPayload extends MutationPayload {
  @Field(() => ApiKey, { nullable: true })
  apiKey!: ApiKey | null;
}
