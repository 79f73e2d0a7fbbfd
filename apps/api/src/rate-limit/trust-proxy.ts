import type { IncomingMessage } from "node:http";
import proxyAddr from "proxy-addr";

/**
 * WEFT_TRUST_PROXY, with the meanings of express's `trust proxy` setting: false (the socket address is
 * the client), true (the left-most X-Forwarded-For address), a hop count (trust that many proxies from
 * the socket inwards), or a list of trusted proxy addresses, CIDR ranges and names (loopback,
 * linklocal, uniquelocal).
 */
export type TrustProxySetting = boolean | number | string[];

/** Whether the address `hop` steps from the socket (0 = the socket's peer) is a trusted proxy. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/** Parses the variable's text; a list entry that is not an address, range or name throws (TypeError). */
export function parseTrustProxy(value: string): TrustProxySetting {
  const text = value.trim();
  if (text === "false") return false;
  if (text === "true") return true;
  if (/^\d+$/.test(text)) return Number(text);
  const list = text.split(",").map((item) => item.trim()).filter((item) => item.length > 0);
  proxyAddr.compile(list);
  return list;
}

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
