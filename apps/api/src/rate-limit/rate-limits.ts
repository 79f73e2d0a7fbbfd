import type { AuthInfo } from "../auth/auth-info.js";
import type { Env } from "../env.js";
import { AppError } from "../errors/app-error.js";
import { CallerBudget, type BudgetDecision, type BudgetStore } from "./caller-budget.js";
import { MemoryConnectionCap, RedisConnectionCap, type ConnectionCap } from "./connection-cap.js";
import { compileProxyTrust, type ProxyTrust } from "./trust-proxy.js";

/** WebSocket close code for a connection over WEFT_MAX_WS_CONNECTIONS_PER_CALLER (429, as in HTTP). */
export const TOO_MANY_CONNECTIONS_CLOSE_CODE = 4429;

export interface RateLimits {
  /** HTTP GraphQL requests and WebSocket subscribe messages. */
  requests: CallerBudget;
  /** runWorkflow calls. */
  runs: CallerBudget;
  /** Open WebSocket connections. */
  connections: ConnectionCap;
  /** WEFT_TRUST_PROXY compiled once: express's `trust proxy` (req.ip) and WebSocket upgrades both use it. */
  proxyTrust: ProxyTrust;
}

/** Limits counted per process, or with a Redis store across every process of the deployment. */
export function createRateLimits(
  env: Pick<Env, "WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE" | "WEFT_RATE_LIMIT_RUNS_PER_MINUTE" | "WEFT_MAX_WS_CONNECTIONS_PER_CALLER" | "WEFT_TRUST_PROXY">,
  store: BudgetStore | null = null,
): RateLimits {
  const cap = env.WEFT_MAX_WS_CONNECTIONS_PER_CALLER;
  return {
    requests: new CallerBudget("requests", env.WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE, store),
    runs: new CallerBudget("runs", env.WEFT_RATE_LIMIT_RUNS_PER_MINUTE, store),
    connections: store ? new RedisConnectionCap(cap, store) : new MemoryConnectionCap(cap),
    proxyTrust: compileProxyTrust(env.WEFT_TRUST_PROXY),
  };
}

/**
 * Who a limit counts against: the API key when there is one, else the client address (behind a
 * trusted proxy, the forwarded one: WEFT_TRUST_PROXY). With WEFT_AUTH=disabled there is no key, so
 * callers are told apart by address.
 */
export function callerOf(auth: AuthInfo, address: string | undefined): string {
  return auth.keyId ? `key:${auth.keyId}` : `ip:${address ?? "unknown"}`;
}

export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}

/** The GraphQL error for a refused request; over HTTP it also sets status 429 and Retry-After. */
export function rateLimitedError(decision: Extract<BudgetDecision, { allowed: false }>, what: string, extensions: Record<string, unknown> = {}): AppError {
  const seconds = retryAfterSeconds(decision.retryAfterMs);
  return new AppError("RATE_LIMITED", `rate limit exceeded: at most ${decision.limit} ${what} per minute; retry in ${seconds} s`, {
    extensions: {
      ...extensions,
      retryAfterMs: decision.retryAfterMs,
      limit: decision.limit,
      http: { status: 429, headers: new Map([["retry-after", String(seconds)]]) },
    },
  });
}
