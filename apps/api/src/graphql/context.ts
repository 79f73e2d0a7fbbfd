import type { AuthInfo } from "../auth/auth-info.js";
import type { Logger } from "../logger.js";
import type { ResponseBudget } from "./limits/response-budget.js";

/**
 * What every resolver receives. Built per HTTP request, and per WebSocket subscription, with every
 * service (services.ts); `S` is the services a resolver reaches, so a module's resolvers declare only
 * their own (`GraphQLContext<{ runs: RunService }>`) and depend on no other module.
 */
export interface GraphQLContext<S extends object = object> {
  requestId: string;
  auth: AuthInfo;
  /** Who rate limits count against: `key:<id>`, or `ip:<address>` without a key (see rate-limit/). */
  caller: string;
  services: S;
  /** A child logger carrying requestId (and the key id once known). */
  logger: Logger;
  /** `scheme://host` as the client reached this server over HTTP (behind a trusted proxy, as forwarded); absent over WebSocket. */
  origin?: string;
  /** Bytes of text this query or mutation may still return; none for subscriptions (one event at a time). */
  responseBudget?: ResponseBudget;
}
