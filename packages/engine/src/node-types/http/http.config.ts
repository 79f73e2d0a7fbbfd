import { httpRequestFields, secretsStayWithTheirHost } from "../../http/http-request.schema.js";
import { nodeConfig } from "../../registry/node-config.schema.js";

/** The `http` node's ports (SPEC-V3 §3): `ok` for a 2xx response, `error` for any other status. */
export const HTTP_PORTS = ["ok", "error"] as const;

export const httpConfig = nodeConfig(httpRequestFields).superRefine(secretsStayWithTheirHost);
