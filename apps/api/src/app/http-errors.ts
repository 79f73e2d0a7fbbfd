import type { ErrorRequestHandler } from "express";
import type { RequestLocals } from "./request-context.js";
import { INTERNAL_MESSAGE } from "../graphql/error-format.js";

/**
 * Errors raised before GraphQL sees the request (body parsing), answered in GraphQL's error shape so
 * clients handle one format: PAYLOAD_TOO_LARGE (413), BAD_REQUEST (400, unparsable JSON), or a masked
 * INTERNAL_SERVER_ERROR.
 */
export function httpErrorHandler(maxBodyBytes: number): ErrorRequestHandler {
  return (error: { type?: string; status?: number; message?: string }, _req, res, _next) => {
    const { requestId, logger } = res.locals as RequestLocals;
    if (error.type === "entity.too.large") {
      const message = `request body exceeds the limit of ${maxBodyBytes} bytes`;
      res.status(413).json({ errors: [{ message, extensions: { code: "PAYLOAD_TOO_LARGE", maxBodyBytes, requestId } }] });
      return;
    }
    if (error.status && error.status >= 400 && error.status < 500) {
      const message = error.type === "entity.parse.failed" ? "request body is not valid JSON" : (error.message ?? "bad request");
      res.status(error.status).json({ errors: [{ message, extensions: { code: "BAD_REQUEST", requestId } }] });
      return;
    }
    logger.error({ err: error }, "unexpected error in the HTTP layer");
    res.status(500).json({ errors: [{ message: INTERNAL_MESSAGE, extensions: { code: "INTERNAL_SERVER_ERROR", requestId } }] });
  };
}
