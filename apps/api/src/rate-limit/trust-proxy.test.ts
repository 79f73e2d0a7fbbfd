import type { IncomingMessage } from "node:http";
import { describe, expect, test } from "vitest";
import { EnvError, loadEnv } from "../env.js";
import { clientAddress, compileProxyTrust } from "./trust-proxy.js";

const request = (forwardedFor: string, peer = "10.0.0.5") =>
  ({ socket: { remoteAddress: peer }, headers: { "x-forwarded-for": forwardedFor } }) as unknown as IncomingMessage;

describe("WEFT_TRUST_PROXY", () => {
  test("reads false (the default), true, a hop count and a list of addresses, ranges and names", () => {
    expect(loadEnv({}, {}).WEFT_TRUST_PROXY).toBe(false);
    expect(loadEnv({ WEFT_TRUST_PROXY: "true" }, {}).WEFT_TRUST_PROXY).toBe(true);
    expect(loadEnv({ WEFT_TRUST_PROXY: "2" }, {}).WEFT_TRUST_PROXY).toBe(2);
    expect(loadEnv({ WEFT_TRUST_PROXY: "loopback, 10.0.0.0/8,::1" }, {}).WEFT_TRUST_PROXY).toEqual(["loopback", "10.0.0.0/8", "::1"]);
  });

  test("an entry that is no address, range or name is a configuration error naming the variable", () => {
    expect(() => loadEnv({ WEFT_TRUST_PROXY: "10.0.0.0/8,proxy.example" }, {})).toThrow(EnvError);
    expect(() => loadEnv({ WEFT_TRUST_PROXY: "10.0.0.0/8,proxy.example" }, {})).toThrow(/WEFT_TRUST_PROXY/);
  });

  test("the client address follows express's rules: untrusted peers are the client, a hop count trusts that many proxies", () => {
    const chain = request("198.51.100.7, 203.0.113.1");
    expect(clientAddress(chain, compileProxyTrust(false))).toBe("10.0.0.5");
    expect(clientAddress(chain, compileProxyTrust(1))).toBe("203.0.113.1");
    expect(clientAddress(chain, compileProxyTrust(2))).toBe("198.51.100.7");
    expect(clientAddress(chain, compileProxyTrust(true))).toBe("198.51.100.7");
    expect(clientAddress(chain, compileProxyTrust(["10.0.0.0/8"]))).toBe("203.0.113.1");
    expect(clientAddress(chain, compileProxyTrust(["192.168.0.0/16"]))).toBe("10.0.0.5");
  });
});
