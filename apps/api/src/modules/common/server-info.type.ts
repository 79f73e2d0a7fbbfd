import { Authorized, Field, Int, ObjectType } from "type-graphql";
import { ExecutionSettings, RetrievalSettings } from "./server-settings.type.js";

@ObjectType({ description: "Limits this server enforces; clients may read them instead of guessing." })
export class ServerLimits {
  @Field(() => Int)
  maxQueryDepth!: number;

  @Field(() => Int)
  maxQueryComplexity!: number;

  @Field(() => Int)
  maxBodyBytes!: number;

  @Field(() => Int, { description: "Bytes of text and JSON one query or mutation may return (RESPONSE_TOO_LARGE beyond)." })
  maxResponseBytes!: number;

  @Field(() => Int, { description: "Times one expensive field (workflow, run, exportWorkflow, …) may appear in one operation." })
  maxAliasesPerField!: number;

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

  // Configuration details are for key holders; the rest of serverInfo is public.
  @Authorized("read")
  @Field(() => RetrievalSettings, { description: "Needs the read scope." })
  retrieval!: RetrievalSettings;

  @Authorized("read")
  @Field(() => ExecutionSettings, { description: "Needs the read scope." })
  execution!: ExecutionSettings;
}
