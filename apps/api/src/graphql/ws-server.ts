import type { Server as HttpServer, IncomingMessage } from "node:http";
import { randomUUID } from "node:crypto";
import {
  getOperationAST,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from "graphql";
import type { Context } from "graphql-ws";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer, type WebSocket } from "ws";
import type { AuthInfo } from "../auth/auth-info.js";
import { authenticate } from "../auth/authenticate.js";
import type { Env } from "../env.js";
import type { Logger } from "../logger.js";
import type { EventBus } from "../pubsub.js";
import type { Services } from "../services.js";
import type { GraphQLContext } from "./context.js";
import { formatError, isExposed, originalError } from "./error-format.js";
import { introspectionRefusal } from "./introspection-guard.js";
import { checkDocumentNesting } from "./limits/document-nesting.js";
import { checkOperationLimits, operationLimitsOf, type OperationLimits } from "./limits/operation-limits.js";
import { ResponseBudget } from "./limits/response-budget.js";
import { watchRevokedKeys } from "./revoked-key-watch.js";
import { PreparedOperations, type OperationPayload, type PreparedOperation } from "./prepared-operations.js";
import { SubscriptionFanOut } from "./subscription-fanout.js";
import { callerOf, rateLimitedError, TOO_MANY_CONNECTIONS_CLOSE_CODE, type RateLimits } from "../rate-limit/rate-limits.js";
import { clientAddress } from "../rate-limit/trust-proxy.js";
import { isAllowedOrigin } from "../auth/allowed-origin.js";
import { localModeRefusal } from "../auth/local-mode-guard.js";

type Extra = { socket: WebSocket; request: IncomingMessage };
type WsContext = Context<Record<string, unknown> | undefined, Extra>;

export interface WsServerOptions {
  httpServer: HttpServer;
  schema: GraphQLSchema;
  env: Env;
  services: Services;
  rateLimits: RateLimits;
  bus: EventBus;
  logger: Logger;
}

export interface WsServerHandle {
  close(): Promise<void>;
}

/**
 * graphql-ws on the HTTP server's port, path /graphql. The key comes from the `authorization` connection
 * parameter (browsers cannot set headers on a WebSocket) or the upgrade request's Authorization header;
 * a missing or bad key closes the socket with 4403. Each subscription is parsed, validated and checked
 * against the same depth/complexity limits as HTTP, and the key is re-checked (it may have been revoked).
 * Rate limits count against the key, else the upgrade request's client address (forwarded through
 * trusted proxies only, as for HTTP: WEFT_TRUST_PROXY). A caller over WEFT_MAX_WS_CONNECTIONS_PER_CALLER
 * open connections is closed with 4429; each subscribe message takes a point of the caller's request budget, and one over it fails alone (RATE_LIMITED).
 * A connection whose key is revoked is closed with 4403 "API key revoked" (see revoked-key-watch.ts).
 */
export async function startWsServer(options: WsServerOptions): Promise<WsServerHandle> {
  const { env, services, logger, schema, rateLimits } = options;
  const revokedKeys = await watchRevokedKeys({
    bus: options.bus,
    apiKeys: services.apiKeys,
    recheckMs: env.WEFT_WS_KEY_RECHECK_SECONDS * 1000,
    logger,
  });
  const wss = new WebSocketServer({
    server: options.httpServer,
    path: "/graphql",
    maxPayload: env.WEFT_MAX_BODY_BYTES,
    verifyClient: ({ origin, req }: { origin: string | undefined; req: IncomingMessage }, accept: (ok: boolean, status?: number, message?: string) => void) => {
      const refusal = env.WEFT_AUTH === "disabled" ? localModeRefusal(req.headers, env.CORS_ORIGINS) : null;
      if (refusal) return accept(false, 403, refusal.code);
      accept(!origin || isAllowedOrigin(origin, env.CORS_ORIGINS));
    },
  });
  const connections = new WeakMap<WebSocket, { auth: AuthInfo; header: string | undefined; connectionId: string; caller: string }>();
  const limits = operationLimitsOf(env);
  const operations = new PreparedOperations();
  const fanOut = new SubscriptionFanOut();

  const disposable = useServer<Record<string, unknown> | undefined, Extra>(
    {
      schema,
      subscribe: fanOut.subscribe,
      onConnect: async (ctx) => {
        const header = authorizationOf(ctx);
        try {
          const auth = await authenticate(header, env, services.apiKeys);
          if (env.WEFT_AUTH === "required" && !auth.authenticated) return false;
          const socket = ctx.extra.socket;
          // Gone while authenticating: its close event has passed, so a counted place would never be freed.
          if (socket.readyState !== socket.OPEN) return false;
          const caller = callerOf(auth, clientAddress(ctx.extra.request, rateLimits.proxyTrust));
          const place = await rateLimits.connections.tryOpen(caller);
          if (place === null) {
            // graphql-ws would close with 4403; closing first makes the client see why. Its own close is then a no-op.
            socket.close(TOO_MANY_CONNECTIONS_CLOSE_CODE, "Too many connections");
            return false;
          }
          if (socket.readyState !== socket.OPEN) {
            rateLimits.connections.release(caller, place);
            return false;
          }
          socket.once("close", () => rateLimits.connections.release(caller, place));
          if (auth.keyId) revokedKeys.add(auth.keyId, socket);
          connections.set(socket, { auth, header, connectionId: randomUUID(), caller });
          return true;
        } catch {
          return false;
        }
      },
      onSubscribe: async (ctx, id, payload) => {
        const connection = connections.get(ctx.extra.socket);
        if (!connection) return [new GraphQLError("not connected", { extensions: { code: "UNAUTHENTICATED" } })];
        let auth: AuthInfo;
        try {
          auth = await authenticate(connection.header, env, services.apiKeys);
        } catch (error) {
          return [error as GraphQLError];
        }
        const budget = await rateLimits.requests.take(connection.caller);
        if (!budget.allowed) return [rateLimitedError(budget, "requests")];
        // Whether the caller has a key decides introspection (introspection-guard.ts): a partition each.
        const prepared = operations.get(payload, auth.authenticated ? "key" : "anonymous", (key) => prepareOperation(schema, payload, limits, auth, key));
        if (!isPrepared(prepared)) return prepared;
        const requestId = `${connection.connectionId}:${id}`;
        const context: GraphQLContext = { requestId, auth, caller: connection.caller, services, logger: logger.child({ requestId, transport: "ws" }) };
        const execution = { schema, document: prepared.document, operationName: payload.operationName ?? undefined, variableValues: payload.variables ?? undefined };
        // Queries and mutations sent over the socket answer once, within the same budget as over HTTP.
        if (prepared.operation.operation !== "subscription") {
          return { ...execution, contextValue: { ...context, responseBudget: new ResponseBudget(env.WEFT_MAX_RESPONSE_BYTES) } };
        }
        fanOut.register(context, { socket: ctx.extra.socket, connection: ctx.extra.request.socket, id, shareKey: prepared.key === null ? null : `${scopesKey(auth)}\u0000${prepared.key}` });
        return { ...execution, contextValue: context };
      },
      // Subscriptions' results without errors do not come here: they are written once per event and
      // operation and sent as they are (subscription-fanout.ts).
      onNext: (_ctx, _id, _payload, args, result) => {
        const context = args.contextValue as GraphQLContext;
        if (context.responseBudget?.exceeded) return { errors: [context.responseBudget.formattedError(context.requestId)] };
        if (!result.errors) return;
        return { ...result, errors: result.errors.map((error) => reportAndFormat(error, context)) };
      },
      onError: (ctx, id, _payload, errors) => {
        const connection = connections.get(ctx.extra.socket);
        const requestId = connection ? `${connection.connectionId}:${id}` : id;
        return errors.map((error) => {
          if (!isExposed(error)) logger.error({ err: originalError(error), requestId }, "unexpected error in a subscription");
          const formatted = formatError(error.toJSON(), error);
          return { ...formatted, extensions: { ...formatted.extensions, requestId } };
        });
      },
    },
    wss,
  );

  return {
    async close() {
      await revokedKeys.stop();
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

function authorizationOf(ctx: WsContext): string | undefined {
  const param = ctx.connectionParams?.["authorization"] ?? ctx.connectionParams?.["Authorization"];
  if (typeof param === "string") return param;
  return ctx.extra.request.headers.authorization;
}

/** Parsed, validated and within the limits, or the errors to send. */
function prepareOperation(
  schema: GraphQLSchema,
  payload: OperationPayload,
  limits: OperationLimits,
  auth: AuthInfo,
  key: string | null,
): PreparedOperation | readonly GraphQLError[] {
  const tooDeep = checkDocumentNesting(payload.query, limits.nesting);
  if (tooDeep) return [tooDeep];
  let document;
  try {
    document = parse(payload.query);
  } catch (error) {
    return [error as GraphQLError];
  }
  const validationErrors = validate(schema, document, specifiedRules);
  if (validationErrors.length > 0) return validationErrors;
  const operation = getOperationAST(document, payload.operationName ?? undefined);
  if (!operation) return [new GraphQLError("could not determine which operation to run", { extensions: { code: "BAD_REQUEST" } })];
  const refused = introspectionRefusal(document, operation, auth);
  if (refused) return [refused];
  const limitErrors = checkOperationLimits({ schema, document, operation, variables: payload.variables ?? undefined }, limits);
  if (limitErrors.length > 0) return limitErrors;
  return { document, operation, key };
}

function isPrepared(prepared: PreparedOperation | readonly GraphQLError[]): prepared is PreparedOperation {
  return !Array.isArray(prepared);
}

/** What authorisation reads of a caller (auth-checker.ts): results are shared only between equal ones. */
function scopesKey(auth: AuthInfo): string {
  return `${auth.authenticated ? "authenticated" : "anonymous"}:${[...auth.scopes].sort().join(",")}`;
}

function reportAndFormat(error: GraphQLError, context: GraphQLContext): GraphQLFormattedError {
  if (!isExposed(error)) context.logger.error({ err: originalError(error), path: error.path }, "unexpected error in a subscription");
  const formatted = formatError(error.toJSON(), error);
  return { ...formatted, extensions: { ...formatted.extensions, requestId: context.requestId } };
}
