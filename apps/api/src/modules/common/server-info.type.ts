import { Field, Int, ObjectType } from "type-graphql";

@ObjectType({ description: "Limits this server enforces; clients may read them instead of guessing." })
export class ServerLimits {
  @Field(() => Int)
  maxQueryDepth!: number;

  @Field(() => Int)
  maxQueryComplexity!: number;

  @Field(() => Int)
  maxBodyBytes!: number;

  @Field(() => Int)
  maxPageSize!: number;
}

@ObjectType()
export class ServerInfo {
  @Field(() => String)
  version!: string;

  @Field(() => Boolean, { description: "False only in local development mode (WEFT_AUTH=disabled)." })
  authRequired!: boolean;

  @Field(() => String, { description: '"embedded" (PGlite) or "server" (PostgreSQL).' })
  databaseMode!: string;

  @Field(() => ServerLimits)
  limits!: ServerLimits;
}
