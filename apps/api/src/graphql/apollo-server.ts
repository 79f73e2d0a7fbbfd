import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginDrainHttpServer } from "@apollo/server/plugin/drainHttpServer";
import { ApolloServerPluginLandingPageDisabled } from "@apollo/server/plugin/disabled";
import type { Server as HttpServer } from "node:http";
import type { GraphQLSchema } from "graphql";
import type { Env } from "../env.js";
import { errorReportingPlugin, operationLimitsPlugin } from "./apollo-plugins.js";
import type { GraphQLContext } from "./context.js";
import { formatError } from "./error-format.js";

/** Apollo for queries and mutations over HTTP; subscriptions go through graphql-ws (ws-server.ts). */
export async function startApollo(schema: GraphQLSchema, httpServer: HttpServer, env: Env): Promise<ApolloServer<GraphQLContext>> {
  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    formatError,
    includeStacktraceInErrorResponses: false,
    // main.ts owns SIGINT/SIGTERM and closes everything in order; Apollo's own handler would race it.
    stopOnTerminationSignals: false,
    introspection: true,
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      // The admin UI is the UI; no landing page that loads scripts from a CDN.
      ApolloServerPluginLandingPageDisabled(),
      operationLimitsPlugin(env),
      errorReportingPlugin(),
    ],
  });
  await apollo.start();
  return apollo;
}
