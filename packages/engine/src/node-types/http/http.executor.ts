import type { HttpRequestSettings } from "../../http/http-request.schema.js";
import { isSuccessStatus } from "../../http/http-response-value.js";
import { WeftError } from "../../model/errors.js";
import { emptyNodeDetails, NodeFailure } from "../../registry/node-failure.js";
import type { NodeExecutor } from "../../registry/node-type-definition.js";
import { templateValuesOf } from "../../template/node-template.js";
import { callHttp } from "../common/http-call.js";

/**
 * The `http` node (SPEC-V3 §3): one request rendered from its settings with the node's template values,
 * sent through the run's HTTP client. Output `{status, headers, body}` on `ok` (2xx) or `error` (any other
 * status); with no edge on `error`, another status fails the node with HTTP_STATUS. The destination
 * guard, the limits and the secrets are the client's (HTTP_DESTINATION_FORBIDDEN, HTTP_TIMEOUT,
 * HTTP_RESPONSE_TOO_LARGE fail the node). Not retried: a POST is not safe to send twice.
 */
export const executeHttpNode: NodeExecutor = async (context) => {
  const details = emptyNodeDetails(context.inputs);
  try {
    const settings = context.node.config as unknown as HttpRequestSettings;
    const values = templateValuesOf(context, context.settings.outputFormat, null);
    const result = await callHttp(context, settings, values, (shown) => {
      details.renderedPrompt = shown;
    });
    const ok = isSuccessStatus(result.status);
    if (!ok && !context.connectedPorts.has("error")) {
      throw new WeftError("HTTP_STATUS", `the server answered ${result.status} and the node's error port has no edge`, { details: { status: result.status } });
    }
    return { description: `answered ${result.status}`, output: result.output, ports: [ok ? "ok" : "error"], details };
  } catch (error) {
    throw NodeFailure.wrap(error, details);
  }
};
