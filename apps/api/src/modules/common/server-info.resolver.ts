import { Ctx, Query, Resolver } from "type-graphql";
import type { Env } from "../../env.js";
import type { GraphQLContext } from "../../graphql/context.js";
import { MAX_ALIASES_PER_EXPENSIVE_FIELD } from "./field-cost.js";
import { MAX_PAGE_SIZE } from "./pagination.js";
import { ServerInfo, ServerLimits } from "./server-info.type.js";
import { ExecutionSettings, type RetrievalSettings } from "./server-settings.type.js";

export const API_VERSION = "0.1.0";

/** What serverInfo reads, by shape: the common module depends on no feature module. */
type ServerInfoContext = GraphQLContext<{
  runs: { deps: { env: Env } };
  knowledgeBases: { settings(): RetrievalSettings };
}>;

/** Public: lets a client discover auth mode and limits before it has a key. */
@Resolver()
export class ServerInfoResolver {
  @Query(() => ServerInfo)
  serverInfo(@Ctx() context: ServerInfoContext): ServerInfo {
    const env = context.services.runs.deps.env;
    const limits = Object.assign(new ServerLimits(), {
      maxQueryDepth: env.WEFT_MAX_QUERY_DEPTH,
      maxQueryComplexity: env.WEFT_MAX_QUERY_COMPLEXITY,
      maxBodyBytes: env.WEFT_MAX_BODY_BYTES,
      maxResponseBytes: env.WEFT_MAX_RESPONSE_BYTES,
      maxAliasesPerField: MAX_ALIASES_PER_EXPENSIVE_FIELD,
      maxPageSize: MAX_PAGE_SIZE,
    });
    return Object.assign(new ServerInfo(), {
      version: API_VERSION,
      authRequired: env.WEFT_AUTH === "required",
      databaseMode: env.DATABASE_URL ? "server" : "embedded",
      limits,
      retrieval: context.services.knowledgeBases.settings(),
      execution: Object.assign(new ExecutionSettings(), {
        runConcurrency: env.WEFT_RUN_CONCURRENCY,
        processConcurrency: env.WEFT_PROCESS_CONCURRENCY,
        parseRepair: env.WEFT_PARSE_REPAIR,
        providerTimeoutMs: env.MISTRAL_TIMEOUT_MS,
      }),
    });
  }
}
