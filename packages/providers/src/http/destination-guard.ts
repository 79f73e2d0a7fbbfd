import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { WeftError } from "@weft/engine";

/**
 * Where the `http` node and `http` tools may connect (SPEC-V3 §3). Only public unicast addresses, as
 * ipaddr.js classifies them: loopback, private (10/8, 172.16/12, 192.168/16), link-local (169.254/16 with
 * the cloud metadata address 169.254.169.254, fe80::/10), unique-local (fc00::/7 with AWS's fd00:ec2::254),
 * carrier-grade NAT (100.64/10, Alibaba's metadata 100.100.100.200), unspecified, multicast, broadcast,
 * reserved and the IPv6 forms that carry an IPv4 address elsewhere (NAT64, 6to4, Teredo) are refused with
 * HTTP_DESTINATION_FORBIDDEN. An IPv4-mapped IPv6 address is judged as the IPv4 address it maps.
 * `WEFT_HTTP_ALLOW` lists host names and addresses or CIDR ranges the operator allows anyway.
 */
export interface HttpAllowList {
  /** Lower-case host names, allowed whatever they resolve to. */
  hosts: ReadonlySet<string>;
  ranges: ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>;
}

export const NOTHING_ALLOWED: HttpAllowList = { hosts: new Set(), ranges: [] };

/** A resolver: every address of a host name (the system's, or a test's). */
export type ResolveHost = (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

export const systemResolver: ResolveHost = (hostname) => lookup(hostname, { all: true, verbatim: true });

// RFC 1123 labels; a trailing dot (the root) is allowed as written.
const HOST_NAME = /^(?=.{1,253}\.?$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/;

/** WEFT_HTTP_ALLOW's entries: host names, addresses and CIDR ranges; the problems name each bad entry. */
export function parseHttpAllow(entries: readonly string[]): { ok: true; allow: HttpAllowList } | { ok: false; problems: string[] } {
  const hosts = new Set<string>();
  const ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
  const problems: string[] = [];
  for (const entry of entries) {
    const text = entry.trim().toLowerCase();
    if (ipaddr.isValidCIDR(text)) ranges.push(ipaddr.parseCIDR(text));
    else if (ipaddr.isValid(text)) {
      const address = ipaddr.parse(text);
      ranges.push([address, address.kind() === "ipv4" ? 32 : 128]);
    } else if (HOST_NAME.test(text) && !/^[\d.]+$/.test(text)) hosts.add(text.replace(/\.$/, ""));
    else problems.push(`WEFT_HTTP_ALLOW: "${entry}" is not a host name, an IP address or a CIDR range`);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, allow: { hosts, ranges } };
}

/** Why an address may not be reached, or null when it may: its ipaddr.js range when that is not public unicast. */
export function addressRefusal(address: string, allow: HttpAllowList): string | null {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  // process() turns ::ffff:127.0.0.1 into 127.0.0.1, so a mapped address is judged as what it reaches.
  const parsed = ipaddr.process(address);
  if (allow.ranges.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits))) return null;
  const range = parsed.range();
  return range === "unicast" ? null : range;
}

/** A URL's host as the guard reads it: brackets of an IPv6 literal removed, lower case, no root dot. */
export function urlHost(url: URL): string {
  const host = url.hostname.toLowerCase();
  return (host.startsWith("[") ? host.slice(1, -1) : host).replace(/\.$/, "");
}

/**
 * The addresses a request to `host` may connect to: resolved once (the caller connects to exactly these,
 * so a name cannot resolve to a public address for the check and a private one for the connection).
 * A host name the allow list names is allowed whatever it resolves to; otherwise every address must be
 * allowed, so a name with one public and one private address is refused. The lookup ends when `signal`
 * does (the request's deadline or its cancellation), so a slow resolver counts against timeoutMs.
 */
export async function allowedAddresses(host: string, allow: HttpAllowList, resolve: ResolveHost, signal: AbortSignal): Promise<Array<{ address: string; family: number }>> {
  if (ipaddr.isValid(host)) {
    const refusal = addressRefusal(host, allow);
    if (refusal !== null) throw forbidden(host, host, refusal);
    return [{ address: host, family: ipaddr.parse(host).kind() === "ipv4" ? 4 : 6 }];
  }
  let addresses: ReadonlyArray<{ address: string; family: number }>;
  try {
    addresses = await untilAborted(resolve(host), signal);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new WeftError("HTTP_REQUEST_FAILED", `cannot resolve ${host} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { audience: "operational" });
  }
  if (addresses.length === 0) throw new WeftError("HTTP_REQUEST_FAILED", `${host} has no address`, { audience: "operational" });
  if (allow.hosts.has(host)) return [...addresses];
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, allow);
    if (refusal !== null) throw forbidden(host, address, refusal);
  }
  return [...addresses];
}

/** The promise's outcome, or the signal's reason as soon as it fires (the system's lookup cannot be cancelled: its answer is ignored). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

export function forbidden(host: string, address: string, range: string): WeftError {
  const at = host === address ? host : `${host} (${address})`;
  return new WeftError("HTTP_DESTINATION_FORBIDDEN", `${at} is a ${range} address; requests may reach public addresses only, unless WEFT_HTTP_ALLOW allows it`, {
    details: { host, address, range },
  });
}
