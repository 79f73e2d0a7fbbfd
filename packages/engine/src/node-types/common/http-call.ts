import type { HttpRequestSettings } from "../../http/http-request.schema.js";
import { httpRequestShown, httpResponseValue } from "../../http/http-response-value.js";
import { renderHttpRequest } from "../../http/render-http-request.js";
import type { JsonValue } from "../../model/json-value.js";
import type { NodeExecutionContext } from "../../registry/node-type-definition.js";
import type { TemplateValues } from "../../template/node-template.js";
import { toolUnavailable } from "./tool-inputs.js";

export interface HttpCallResult {
  status: number;
  output: { status: number; headers: Record<string, string>; body: JsonValue };
}

/**
 * One HTTP request of an `http` node or tool: rendered from its settings, sent through the run's client
 * (the host's guard and limits apply), its response as a value. A run without a client fails with
 * HTTP_UNAVAILABLE. `shown` gets the request as sent, secrets shown as references (the node run's rendered
 * prompt), before it leaves, so a failed call still shows what it sent.
 */
export async function callHttp(context: NodeExecutionContext, settings: HttpRequestSettings, values: TemplateValues, shown: (text: string) => void): Promise<HttpCallResult> {
  const client = context.tools.http;
  if (!client) throw toolUnavailable("HTTP_UNAVAILABLE", "HTTP");
  const request = renderHttpRequest(settings, values, context.limits);
  shown(httpRequestShown(request));
  const response = await client.send(request, context.signal);
  return { status: response.status, output: httpResponseValue(response, context.limits) };
}
