import { z } from "zod";
import { HTTP_METHODS } from "../providers/http-client.js";
import { SECRET_REFERENCE } from "../model/secret-reference.js";
import { kind, templateText } from "../registry/node-config.schema.js";

/** Bounds of an HTTP request's settings (SPEC-V3 §3: timeoutMs ≤ 60,000, maxResponseBytes ≤ 10 MiB). */
export const HTTP_LIMITS = Object.freeze({
  maxTimeoutMs: 60_000,
  defaultTimeoutMs: 10_000,
  maxResponseBytes: 10 * 1024 * 1024,
  defaultMaxResponseBytes: 1024 * 1024,
  maxHeaders: 32,
  maxUrlLength: 8_192,
});

// RFC 9110 token characters; the client sets these itself (or they would let one request smuggle another;
// Accept-Encoding because the client decodes no compressed body, so it always asks for identity).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
const HOST_OWNED_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection", "upgrade", "te", "trailer", "keep-alive", "accept-encoding"]);

const headerName = z
  .string()
  .regex(HEADER_NAME, "must be an HTTP header name (letters, digits and !#$%&'*+.^_`|~-)")
  .refine((name) => !HOST_OWNED_HEADERS.has(name.toLowerCase()), { message: "is set by the HTTP client itself" });

/**
 * The settings of one HTTP request: the `http` node's config and an `http` tool's `request`. URL, header
 * values and body are templates; `{secret.NAME}` may appear in the URL and header values only.
 */
export const httpRequestFields = {
  method: z.enum(HTTP_METHODS).optional().meta({ description: "The HTTP method.", default: "GET" }),
  url: templateText
    .min(1, "must not be empty")
    .max(HTTP_LIMITS.maxUrlLength)
    .meta(kind("template", "The URL (http or https), a template; {secret.NAME} may appear in it. With {secret.NAME} in the request, write the scheme and host out (no placeholder before the path).")),
  headers: z
    .record(headerName, templateText.meta(kind("template", "The header's value, a template; {secret.NAME} may appear in it.")))
    .refine((headers) => Object.keys(headers).length <= HTTP_LIMITS.maxHeaders, { message: `must hold at most ${HTTP_LIMITS.maxHeaders} headers` })
    .optional()
    .meta({ description: "Request headers by name; values are templates." }),
  body: templateText
    .refine((body) => !new RegExp(SECRET_REFERENCE.source).test(body), { message: "may not hold {secret.NAME}: secrets go in the URL or a header" })
    .optional()
    .meta(kind("template", "The request body, a template; with json the placeholders are filled with JSON values and the result must parse.")),
  json: z.boolean().optional().meta({ description: "Send the body as JSON (Content-Type application/json unless a header says otherwise).", default: false }),
  timeoutMs: z
    .int()
    .min(1)
    .max(HTTP_LIMITS.maxTimeoutMs)
    .optional()
    .meta({ description: "Most milliseconds for the request and its response, redirects included.", default: HTTP_LIMITS.defaultTimeoutMs }),
  maxResponseBytes: z
    .int()
    .min(1)
    .max(HTTP_LIMITS.maxResponseBytes)
    .optional()
    .meta({ description: "Most bytes of response body read (never more than the node output's limit); a larger response fails with HTTP_RESPONSE_TOO_LARGE.", default: HTTP_LIMITS.defaultMaxResponseBytes }),
};

/** Scheme and host written out in a URL template: `https://api.example.com` and then a path, query or nothing. */
const WRITTEN_ORIGIN = /^https?:\/\/[^/?#{}]+(?:[/?#]|$)/i;

/**
 * A request that carries a secret goes to a host its author wrote: with `{secret.NAME}` in the URL or a
 * header, the URL's scheme and host may hold no placeholder, or a model's `{args.url}` (or any upstream
 * text) could send the author's key to a server of its choosing. Refused on the URL field.
 */
export function secretsStayWithTheirHost(settings: { url: string; headers?: Record<string, string> | undefined }, context: z.RefinementCtx): void {
  const holdsSecret = [settings.url, ...Object.values(settings.headers ?? {})].some((text) => new RegExp(SECRET_REFERENCE.source).test(text));
  if (!holdsSecret || WRITTEN_ORIGIN.test(settings.url)) return;
  context.addIssue({
    code: "custom",
    path: ["url"],
    message: "must write its scheme and host without a placeholder when the request carries a {secret.NAME}: a filled-in host could send the secret anywhere",
  });
}

export const httpRequestSettings = z.strictObject(httpRequestFields).superRefine(secretsStayWithTheirHost);
export type HttpRequestSettings = z.infer<typeof httpRequestSettings>;
