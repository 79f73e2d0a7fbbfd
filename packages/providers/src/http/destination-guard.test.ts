import { describe, expect, it } from "vitest";
import { addressRefusal, allowedAddresses, NOTHING_ALLOWED, parseHttpAllow, urlHost, type HttpAllowList, type ResolveHost } from "./destination-guard.js";

/** A resolver from a table: no test here asks the system's DNS or connects anywhere. */
const table =
  (entries: Record<string, string[]>): ResolveHost =>
  async (hostname) => {
    const addresses = entries[hostname];
    if (!addresses) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
const signal = new AbortController().signal;
/** A resolver that never answers, as a DNS server that drops the query. */
const silent: ResolveHost = () => new Promise(() => undefined);

const allowOf = (...entries: string[]): HttpAllowList => {
  const parsed = parseHttpAllow(entries);
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return parsed.allow;
};

/** The host of a URL as written, after the WHATWG parser (which reads 2130706433, 0x7f.1 and 0177.0.0.1 as IPv4). */
const hostOf = (url: string) => urlHost(new URL(url));

const code = async (promise: Promise<unknown>) => promise.then(() => "allowed", (error: { code?: string }) => error.code ?? "no code");

describe("the destination guard's decision", () => {
  it("refuses loopback, private, link-local, metadata, carrier-grade NAT and unspecified IPv4 addresses, naming the range", () => {
    const refusals = ["127.0.0.1", "127.8.9.10", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "100.100.100.200", "0.0.0.0", "224.0.0.1", "255.255.255.255"].map((address) => [
      address,
      addressRefusal(address, NOTHING_ALLOWED),
    ]);
    expect(refusals).toEqual([
      ["127.0.0.1", "loopback"],
      ["127.8.9.10", "loopback"],
      ["10.1.2.3", "private"],
      ["172.16.0.1", "private"],
      ["192.168.1.1", "private"],
      ["169.254.169.254", "linkLocal"],
      ["100.64.0.1", "carrierGradeNat"],
      ["100.100.100.200", "carrierGradeNat"],
      ["0.0.0.0", "unspecified"],
      ["224.0.0.1", "multicast"],
      ["255.255.255.255", "broadcast"],
    ]);
  });

  it("refuses IPv6 loopback, unique-local (fd00:ec2::254), link-local, IPv4-mapped and NAT64 forms of private addresses", () => {
    const refusals = ["::1", "fd00:ec2::254", "fc00::1", "fe80::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:169.254.169.254", "64:ff9b::a00:1", "::"].map((address) => [
      address,
      addressRefusal(address, NOTHING_ALLOWED),
    ]);
    expect(refusals).toEqual([
      ["::1", "loopback"],
      ["fd00:ec2::254", "uniqueLocal"],
      ["fc00::1", "uniqueLocal"],
      ["fe80::1", "linkLocal"],
      ["::ffff:127.0.0.1", "loopback"],
      ["::ffff:7f00:1", "loopback"],
      ["::ffff:169.254.169.254", "linkLocal"],
      ["64:ff9b::a00:1", "rfc6052"],
      ["::", "unspecified"],
    ]);
  });

  it("allows public unicast addresses of both families", () => {
    expect(["93.184.216.34", "8.8.8.8", "2606:2800:220:1:248:1893:25c8:1946", "::ffff:8.8.8.8"].map((address) => addressRefusal(address, NOTHING_ALLOWED))).toEqual([null, null, null, null]);
  });

  it("reads decimal, hexadecimal and octal forms of 127.0.0.1 in a URL as loopback", async () => {
    const hosts = ["http://2130706433/", "http://0x7f000001/", "http://0177.0.0.1/", "http://0x7f.1/", "http://127.1/", "http://[::ffff:127.0.0.1]/", "http://[::1]:8080/"].map(hostOf);
    expect(hosts).toEqual(["127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.1", "::ffff:7f00:1", "::1"]);
    for (const host of hosts) expect(await code(allowedAddresses(host, NOTHING_ALLOWED, table({}), signal))).toBe("HTTP_DESTINATION_FORBIDDEN");
  });

  it("refuses a name that resolves to 127.0.0.1, or to a public and a private address", async () => {
    const resolve = table({ "localtest.me": ["127.0.0.1"], "mixed.example": ["93.184.216.34", "10.0.0.5"], "public.example": ["93.184.216.34"] });
    await expect(allowedAddresses("localtest.me", NOTHING_ALLOWED, resolve, signal)).rejects.toMatchObject({
      code: "HTTP_DESTINATION_FORBIDDEN",
      details: { host: "localtest.me", address: "127.0.0.1", range: "loopback" },
    });
    expect(await code(allowedAddresses("mixed.example", NOTHING_ALLOWED, resolve, signal))).toBe("HTTP_DESTINATION_FORBIDDEN");
    expect(await allowedAddresses("public.example", NOTHING_ALLOWED, resolve, signal)).toEqual([{ address: "93.184.216.34", family: 4 }]);
    expect(await code(allowedAddresses("nowhere.example", NOTHING_ALLOWED, resolve, signal))).toBe("HTTP_REQUEST_FAILED");
  });

  it("stops waiting for a lookup that does not answer when the request's signal fires, with the signal's reason", async () => {
    const cancelled = new AbortController();
    const waiting = allowedAddresses("slow.example", NOTHING_ALLOWED, silent, cancelled.signal);
    cancelled.abort(new DOMException("cancelled", "AbortError"));
    await expect(waiting).rejects.toMatchObject({ name: "AbortError", message: "cancelled" });
    await expect(allowedAddresses("slow.example", NOTHING_ALLOWED, silent, AbortSignal.abort())).rejects.toMatchObject({ name: "AbortError" });
  });

  it("lets WEFT_HTTP_ALLOW allow a CIDR range, an address or a host name, and nothing more", async () => {
    const allow = allowOf("127.0.0.0/8", "fd00::/8", "10.0.0.7", "api.internal");
    const resolve = table({ "api.internal": ["10.9.9.9"], "other.internal": ["10.9.9.9"] });
    expect(addressRefusal("127.0.0.1", allow)).toBeNull();
    expect(addressRefusal("::ffff:127.0.0.1", allow)).toBeNull();
    expect(addressRefusal("fd00:ec2::254", allow)).toBeNull();
    expect(addressRefusal("10.0.0.7", allow)).toBeNull();
    expect(addressRefusal("10.0.0.8", allow)).toBe("private");
    expect(addressRefusal("169.254.169.254", allow)).toBe("linkLocal");
    expect(await allowedAddresses("api.internal", allow, resolve, signal)).toEqual([{ address: "10.9.9.9", family: 4 }]);
    expect(await code(allowedAddresses("other.internal", allow, resolve, signal))).toBe("HTTP_DESTINATION_FORBIDDEN");
  });

  it("names every entry of WEFT_HTTP_ALLOW that is not a host, an address or a range", () => {
    expect(parseHttpAllow(["10.0.0.0/33", "not a host", "example.com", "::1"])).toEqual({
      ok: false,
      problems: [
        'WEFT_HTTP_ALLOW: "10.0.0.0/33" is not a host name, an IP address or a CIDR range',
        'WEFT_HTTP_ALLOW: "not a host" is not a host name, an IP address or a CIDR range',
      ],
    });
  });
});
