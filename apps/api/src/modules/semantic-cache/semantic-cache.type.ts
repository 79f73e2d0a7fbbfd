import { GraphQLJSON } from "graphql-scalars";
import { Field, ID, Int, ObjectType } from "type-graphql";
import { MutationPayload } from "../../errors/user-error.type.js";
import { connectionTypes } from "../common/pagination.js";

@ObjectType("SemanticCacheEntry", { description: "A cached answer and the question it answers." })
export class SemanticCacheEntryObject {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: "The scope key: `ns:<namespace>`, `workflow:<id>:v<n>`, `workflow:<id>:draft@<n>`, `…:node:<nodeId>`." })
  scope!: string;

  @Field(() => String)
  query!: string;

  @Field(() => GraphQLJSON)
  answer!: unknown;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: "When it expires; null: never." })
  expiresAt!: Date | null;
}

export const { Edge: SemanticCacheEntryEdge, Connection: SemanticCacheEntryConnection } = connectionTypes("SemanticCacheEntry", () => SemanticCacheEntryObject);

@ObjectType({ implements: MutationPayload })
export class ClearSemanticCachePayload extends MutationPayload {
  @Field(() => Int, { nullable: true, description: "Entries deleted (expired ones included)." })
  cleared!: number | null;
}
