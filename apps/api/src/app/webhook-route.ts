import express, { type Router } from "express";
import { IDEMPOTENCY_HEADER, SIGNATURE_HEADER, type TriggerFiringService } from "../modules/trigger/index.js";
import { retryAfterSeconds, type RateLimits } from "../rate-limit/rate-limits.js";
import type { RequestLocals } from "./request-context.js";

export interface WebhookRouteOptions {
  firing: TriggerFiringService;
  rateLimits: RateLimits;
  maxBodyBytes: number;
}

/**
 * `POST /hooks/:triggerId`. The caller's address spends the API's request budget first (429 with
 * Retry-After), then the body is read raw — the signature is over its exact bytes — within
 * WEFT_MAX_BODY_BYTES (413 from http-errors.ts), and the firing service decides the rest.
 */
export function webhookRouter(options: WebhookRouteOptions): Router {
  const router = express.Router();
  router.post(
    "/hooks/:triggerId",
    async (req, res, next) => {
      const decision = await options.rateLimits.requests.take(`ip:${req.ip ?? req.socket.remoteAddress ?? "unknown"}`);
      if (decision.allowed) return next();
      const seconds = retryAfterSeconds(decision.retryAfterMs);
      res.set("Retry-After", String(seconds)).status(429).json({
        errors: [{ message: `rate limit exceeded: at most ${decision.limit} requests per minute; retry in ${seconds} s`, extensions: { code: "RATE_LIMITED", retryAfterMs: decision.retryAfterMs } }],
      });
    },
    express.raw({ type: () => true, limit: options.maxBodyBytes }),
    async (req, res, next) => {
      try {
        const answer = await options.firing.webhook({
          triggerId: String(req.params.triggerId),
          body: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
          contentType: req.headers["content-type"],
          headers: req.headers,
          search: req.originalUrl.includes("?") ? req.originalUrl.slice(req.originalUrl.indexOf("?")) : "",
          signature: req.get(SIGNATURE_HEADER),
          idempotencyKey: req.get(IDEMPOTENCY_HEADER),
        });
        const { requestId } = res.locals as RequestLocals;
        if (answer.headers) res.set(answer.headers);
        res.status(answer.status).json(withRequestId(answer.body, requestId));
      } catch (error) {
        next(error);
      }
    },
  );
  return router;
}

function withRequestId(body: Record<string, unknown>, requestId: string): Record<string, unknown> {
  const errors = body.errors;
  if (!Array.isArray(errors)) return body;
  return { ...body, errors: errors.map((error: { extensions?: Record<string, unknown> }) => ({ ...error, extensions: { ...error.extensions, requestId } })) };
}
