import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import type { Logger } from "../logger.js";

/** A client-chosen request id is kept when it is short and plain, so traces can cross services. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export interface RequestLocals {
  requestId: string;
  logger: Logger;
}

/** Gives every request an id (echoed as X-Request-Id) and a child logger, and logs its completion. */
export function requestContextMiddleware(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers["x-request-id"];
    const requestId = typeof incoming === "string" && CLIENT_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const child = logger.child({ requestId });
    const locals = res.locals as RequestLocals;
    locals.requestId = requestId;
    locals.logger = child;
    res.setHeader("X-Request-Id", requestId);
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      child.info({ method: req.method, path: req.originalUrl.split("?")[0], status: res.statusCode, ms: Math.round(ms * 10) / 10 }, "request");
    });
    next();
  };
}
