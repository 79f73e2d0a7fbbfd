import type { RequestHandler } from "express";
import { checkDocumentNesting, type DocumentNestingLimits } from "../graphql/limits/document-nesting.js";
import type { RequestLocals } from "./request-context.js";

/**
 * Refuses, before Apollo parses it, a GraphQL document whose brackets nest deeper than the parser can
 * take (see document-nesting.ts): POST bodies and GET query strings alike, answered 400 in GraphQL's
 * error shape with the request id. The WebSocket server runs the same check on each subscribe message.
 */
export function documentNestingGuard(limits: DocumentNestingLimits): RequestHandler {
  return (req, res, next) => {
    const body: unknown = req.body;
    const fromBody = body !== null && typeof body === "object" ? (body as Record<string, unknown>)["query"] : undefined;
    const query = typeof fromBody === "string" ? fromBody : req.query["query"];
    if (typeof query !== "string") return next();
    const refusal = checkDocumentNesting(query, limits);
    if (!refusal) return next();
    const { requestId } = res.locals as RequestLocals;
    const { http: _http, ...extensions } = refusal.extensions;
    res.status(400).json({ errors: [{ message: refusal.message, extensions: { ...extensions, requestId } }] });
  };
}
