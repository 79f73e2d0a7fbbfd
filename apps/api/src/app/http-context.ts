import type { Request, Response } from "express";
import { ANONYMOUS, type AuthInfo } from "../auth/auth-info.js";
import { authenticate } from "../auth/authenticate.js";
import type { Env } from "../env.js";
import type { GraphQLContext } from "../graphql/context.js";
import { ResponseBudget } from "../graphql/limits/response-budget.js";
import { callerOf, rateLimitedError, type RateLimits } from "../rate-limit/rate-limits.js";
import type { Services } from "../services.js";
import type { RequestLocals } from "./request-context.js";

export interface HttpContextOptions {
  env: Env;
  services: Services;
  rateLimits: RateLimits;
}

/**
 * Apollo's context function: authenticates the caller, then takes one point of its request budget. A
 * request with a bad key still costs its address a point, so guessing keys is rate limited too.
 */
export function httpContext(options: HttpContextOptions) {
  const { env, services, rateLimits } = options;
  return async ({ req, res }: { req: Request; res: Response }): Promise<GraphQLContext> => {
    const locals = res.locals as RequestLocals;
    const address = req.ip ?? req.socket.remoteAddress;
    let auth: AuthInfo;
    try {
      auth = await authenticate(req.headers.authorization, env, services.apiKeys);
    } catch (error) {
      await enforce(rateLimits, callerOf(ANONYMOUS, address), locals.requestId);
      throw error;
    }
    const caller = callerOf(auth, address);
    await enforce(rateLimits, caller, locals.requestId);
    const logger = auth.keyId ? locals.logger.child({ apiKeyId: auth.keyId }) : locals.logger;
    const origin = `${req.protocol}://${req.get("host") ?? `${env.HOST}:${env.PORT}`}`;
    return { requestId: locals.requestId, auth, caller, services, logger, origin, responseBudget: new ResponseBudget(env.WEFT_MAX_RESPONSE_BYTES) };
  };
}

async function enforce(rateLimits: RateLimits, caller: string, requestId: string): Promise<void> {
  const decision = await rateLimits.requests.take(caller);
  if (!decision.allowed) throw rateLimitedError(decision, "requests", { requestId });
}
