import { z } from "zod";
import type { NodeTypeDefinition } from "../../registry/node-type-definition.js";
import { fixedPorts } from "../common/router-ports.js";
import { TOOL_SHAPE } from "../common/tool-node-shape.js";
import { httpConfig, HTTP_PORTS } from "./http.config.js";
import { executeHttpNode } from "./http.executor.js";

export const HTTP_NODE_TYPE: NodeTypeDefinition = {
  ...TOOL_SHAPE,
  type: "http",
  label: "http request",
  component: "RouterNode",
  description: "Sends an HTTP request made from templates; outputs {status, headers, body} on ok (2xx) or error (any other status).",
  usesModel: false,
  attributes: z.strictObject({}),
  config: httpConfig,
  defaultConfig: { method: "GET", url: "https://example.com/" },
  router: fixedPorts(HTTP_PORTS),
  execute: executeHttpNode,
};
