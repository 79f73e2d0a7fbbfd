import { parseJsonWithin } from "../limits/json-text-depth.js";
import type { RunLimits } from "../limits/run-limits.js";
import type { JsonValue } from "../model/json-value.js";
import { secretTextShown, type HttpRequest, type HttpResponse } from "../providers/http-client.js";

/** `application/json`, `application/problem+json`, `application/vnd.api+json; charset=utf-8`, … */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i;

/**
 * An HTTP response as a node's output (SPEC-V3 §3): `{status, headers, body}`, the body parsed when the
 * response says it is JSON and it parses within the run's depth limit, else the text as it came.
 */
export function httpResponseValue(response: HttpResponse, limits: Pick<RunLimits, "maxValueDepth">): { status: number; headers: Record<string, string>; body: JsonValue } {
  return { status: response.status, headers: response.headers, body: responseBody(response, limits) };
}

function responseBody(response: HttpResponse, limits: Pick<RunLimits, "maxValueDepth">): JsonValue {
  const type = response.headers["content-type"] ?? "";
  if (!JSON_MEDIA_TYPE.test(type) || response.body.trim() === "") return response.body;
  try {
    return parseJsonWithin(response.body, limits.maxValueDepth, "the response body") as JsonValue;
  } catch {
    // A server that says JSON and sends something else: the text is still the answer, and the node's output gate bounds it.
    return response.body;
  }
}

/** The request as a node run shows it: method, URL, headers and body, secrets as `{secret.NAME}`. */
export function httpRequestShown(request: HttpRequest): string {
  const lines = [`${request.method} ${secretTextShown(request.url)}`, ...request.headers.map(([name, value]) => `${name}: ${secretTextShown(value)}`)];
  return request.body === null ? lines.join("\n") : `${lines.join("\n")}\n\n${secretTextShown(request.body)}`;
}

/** Whether the status is a success (the `ok` port). */
export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status <= 299;
}
