/**
 * HTTP requests of the `http` node and `http` tools (SPEC-V3 §3). The engine renders a request from a
 * node's settings and hands it to the host's client, which owns the network: the destination guard
 * (loopback, private, link-local and metadata addresses refused with HTTP_DESTINATION_FORBIDDEN unless
 * the operator allows them, redirects re-checked), the time and size limits, and `{secret.NAME}`.
 */
export interface HttpClient {
  /**
   * Sends one request and resolves with the response of whatever status (non-2xx is not an error here).
   * Throws a WeftError: HTTP_DESTINATION_FORBIDDEN, HTTP_TIMEOUT, HTTP_RESPONSE_TOO_LARGE,
   * HTTP_REQUEST_FAILED (no connection, a bad redirect), SECRET_NOT_FOUND.
   */
  send(request: HttpRequest, signal: AbortSignal): Promise<HttpResponse>;
}

/**
 * Text that may hold secret references: literal pieces and `{secret: NAME}` pieces, which only the host
 * fills in, at the call. A reference can come only from the workflow's own settings, never from a value
 * a template put in (an upstream output that says `{secret.KEY}` stays that text).
 */
export type SecretText = ReadonlyArray<string | { readonly secret: string }>;

export interface HttpRequest {
  method: HttpMethod;
  url: SecretText;
  /** In the order written; names as written (HTTP names are case-insensitive). */
  headers: ReadonlyArray<readonly [name: string, value: SecretText]>;
  /** The body's text, or null for none. */
  body: SecretText | null;
  /** Total time for the request and its response, redirects included. */
  timeoutMs: number;
  /** Most bytes of response body read; more is HTTP_RESPONSE_TOO_LARGE, stopping the read there. */
  maxResponseBytes: number;
  /** The limit maxResponseBytes is, named in HTTP_RESPONSE_TOO_LARGE: the request's setting, or the node output's limit when that is lower. */
  responseLimit: "maxResponseBytes" | "WEFT_MAX_NODE_OUTPUT_BYTES";
}

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface HttpResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", " (set-cookie with "\n"). */
  headers: Record<string, string>;
  /** The body as text (UTF-8). Any secret the request carried is replaced by `[secret]`. */
  body: string;
}

/** Secret text for people: references shown as written (`{secret.NAME}`), never their values. */
export function secretTextShown(text: SecretText): string {
  return text.map((part) => (typeof part === "string" ? part : `{secret.${part.secret}}`)).join("");
}
