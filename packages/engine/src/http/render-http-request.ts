import { parseJsonWithin } from "../limits/json-text-depth.js";
import type { RunLimits } from "../limits/run-limits.js";
import { gateTextLength } from "../limits/value-gate.js";
import { WeftError } from "../model/errors.js";
import { SECRET_REFERENCE } from "../model/secret-reference.js";
import type { HttpRequest, SecretText } from "../providers/http-client.js";
import { isSinglePlaceholder, renderTemplate, type TemplateValues } from "../template/node-template.js";
import { HTTP_LIMITS, type HttpRequestSettings } from "./http-request.schema.js";

/** What a rendered request may not hold in a header value: line breaks would start another header. */
const HEADER_VALUE_BREAK = /[\r\n\0]/;

/**
 * Renders an HTTP request from its settings (SPEC-V3 §3) with a node's template values (an `http` tool's
 * also hold `{args.<name>}`). `{secret.NAME}` written in the settings becomes a secret piece the host
 * fills in; the template's placeholders are filled first, piece by piece, so a value that contains
 * `{secret.KEY}` stays that text and can never name a secret. With `json` the body's placeholders are
 * filled with JSON values and the result must parse (TEMPLATE_INVALID_JSON). Every text is held to the
 * node output's limit while it is built (OUTPUT_TOO_LARGE); a header value with a line break is refused
 * (HTTP_HEADER_INVALID). A value put into the URL is percent-encoded, so it stays inside its query
 * parameter or path segment (a model's `x&days=365#` or `../../admin` cannot change where the request
 * goes); a URL template that is one placeholder and nothing else (`{input}`) takes its value as the whole
 * URL, which the host's guard checks as any other. The response is read up to the smaller of
 * maxResponseBytes and the node output's limit: a body the output gate would refuse is not buffered whole.
 */
export function renderHttpRequest(settings: HttpRequestSettings, values: TemplateValues, limits: Pick<RunLimits, "maxNodeOutputBytes" | "maxValueDepth">): HttpRequest {
  const headers = Object.entries(settings.headers ?? {}).map(([name, template]): [string, SecretText] => {
    const value = renderSecretText(template, values, limits);
    if (value.some((part) => typeof part === "string" && HEADER_VALUE_BREAK.test(part))) {
      throw new WeftError("HTTP_HEADER_INVALID", `the value of header "${name}" holds a line break or NUL after its placeholders were filled`);
    }
    return [name, value];
  });
  const hasContentType = headers.some(([name]) => name.toLowerCase() === "content-type");
  if (settings.json === true && settings.body !== undefined && !hasContentType) headers.push(["Content-Type", ["application/json"]]);
  const maxResponseBytes = settings.maxResponseBytes ?? HTTP_LIMITS.defaultMaxResponseBytes;
  return {
    method: settings.method ?? "GET",
    url: renderSecretText(settings.url, values, limits, isSinglePlaceholder(settings.url) ? "text" : "url"),
    headers,
    body: settings.body === undefined ? null : [renderBody(settings.body, settings.json === true, values, limits)],
    timeoutMs: settings.timeoutMs ?? HTTP_LIMITS.defaultTimeoutMs,
    maxResponseBytes: Math.min(maxResponseBytes, limits.maxNodeOutputBytes),
    responseLimit: maxResponseBytes <= limits.maxNodeOutputBytes ? "maxResponseBytes" : "WEFT_MAX_NODE_OUTPUT_BYTES",
  };
}

/** A template with `{secret.NAME}` references: the text between them rendered, the references kept as pieces. */
function renderSecretText(template: string, values: TemplateValues, limits: Pick<RunLimits, "maxNodeOutputBytes">, mode: "text" | "url" = "text"): SecretText {
  const parts: Array<string | { secret: string }> = [];
  let length = 0;
  let from = 0;
  const text = (piece: string) => {
    if (piece === "") return;
    const rendered = renderTemplate(piece, { ...values, maxLength: limits.maxNodeOutputBytes }, mode).text;
    length += rendered.length;
    gateTextLength(length, limits, "the rendered request");
    parts.push(rendered);
  };
  for (const match of template.matchAll(SECRET_REFERENCE)) {
    text(template.slice(from, match.index));
    parts.push({ secret: match[1]! });
    from = match.index + match[0].length;
  }
  text(template.slice(from));
  return parts;
}

function renderBody(template: string, json: boolean, values: TemplateValues, limits: Pick<RunLimits, "maxNodeOutputBytes" | "maxValueDepth">): string {
  const body = renderTemplate(template, { ...values, maxLength: limits.maxNodeOutputBytes }, json ? "json" : "text").text;
  if (json) {
    try {
      parseJsonWithin(body, limits.maxValueDepth, "the rendered body");
    } catch (error) {
      if (error instanceof WeftError) throw error;
      throw new WeftError("TEMPLATE_INVALID_JSON", `the body template did not produce JSON: ${(error as Error).message}`);
    }
  }
  return body;
}
