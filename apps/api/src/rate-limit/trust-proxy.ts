import type { IncomingMessage } from "node:http";
import proxyAddr from "proxy-addr";

import type { TrustProxySetting } from "../env.js";

/** Whether the address `hop` steps from the socket (0 = the socket's peer) is a trusted proxy. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/** The same compilation express applies to its `trust proxy` setting, so HTTP and WebSocket agree. */
export function compileProxyTrust(setting: TrustProxySetting): ProxyTrust {
  if (setting === true) return () => true;
  if (setting === false) return () => false;
  if (typeof setting === "number") return (_address, hop) => hop < setting;
  return proxyAddr.compile(setting);
}

/** The client address of a request (HTTP or a WebSocket upgrade) as express's `req.ip` computes it. */
export function clientAddress(request: IncomingMessage, trust: ProxyTrust): string | undefined {
  // A socket already closed has no address; proxy-addr then has nothing to start from.
  return request.socket.remoteAddress === undefined ? undefined : proxyAddr(request, trust);
}
