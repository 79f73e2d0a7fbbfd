import type { HttpRequest, SecretText } from "@weft/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpTestServer, type HttpTestServer } from "../testing/http-test-server.js";
import { parseHttpAllow, type HttpAllowList, type ResolveHost } from "./destination-guard.js";
import { GuardedHttpClient } from "./guarded-http-client.js";

const allowOf = (...entries: string[]): HttpAllowList => {
  const parsed = parseHttpAllow(entries);
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return parsed.allow;
};

const request = (url: SecretText | string, extra: Partial<HttpRequest> = {}): HttpRequest => ({
  method: "GET",
  url: typeof url === "string" ? [url] : url,
  headers: [],
  body: null,
  timeoutMs: 30_000,
  maxResponseBytes: 1024 * 1024,
  responseLimit: "maxResponseBytes",
  ...extra,
});

const codeOf = (promise: Promise<unknown>) => promise.then(() => "answered", (error: { code?: string; message?: string }) => error.code ?? error.message);
const signal = new AbortController().signal;

/** Every destination in this file is on 127.0.0.1 or refused before any connection. */
describe("GuardedHttpClient against a real HTTP server on loopback", () => {
  let server: HttpTestServer;
  const secrets: Record<string, string> = { API_KEY: "sk-test-0123456789" };
  const readSecret = async (name: string) => secrets[name] ?? null;

  beforeAll(async () => {
    server = await startHttpTestServer();
  });
  afterAll(async () => server.stop());

  it("refuses loopback unless WEFT_HTTP_ALLOW allows it, before anything is sent", async () => {
    const before = server.received.length;
    await expect(new GuardedHttpClient().send(request(`${server.origin}/echo`), signal)).rejects.toMatchObject({ code: "HTTP_DESTINATION_FORBIDDEN" });
    expect(server.received.length).toBe(before);
    const allowed = await new GuardedHttpClient({ allow: allowOf("127.0.0.1/32") }).send(request(`${server.origin}/echo`), signal);
    expect(allowed.status).toBe(200);
    expect(JSON.parse(allowed.body)).toMatchObject({ method: "GET", path: "/echo" });
  });

  it("connects to the address it checked: a name is resolved once per connection, and the Host header keeps the name", async () => {
    const lookups: string[] = [];
    const resolve: ResolveHost = async (hostname) => {
      lookups.push(hostname);
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const refused = new GuardedHttpClient({ resolve });
    expect(await codeOf(refused.send(request(`http://weft.test:${server.port}/echo`), signal))).toBe("HTTP_DESTINATION_FORBIDDEN");
    const client = new GuardedHttpClient({ allow: allowOf("127.0.0.0/8"), resolve });
    const response = await client.send(request(`http://weft.test:${server.port}/echo`), signal);
    expect(JSON.parse(response.body).headers.host).toBe(`weft.test:${server.port}`);
    expect(lookups).toEqual(["weft.test", "weft.test"]);
  });

  it("re-checks every redirect: one to an address the list does not allow is refused, one it allows is followed", async () => {
    const client = new GuardedHttpClient({ allow: allowOf("127.0.0.1/32") });
    const to = (target: string) => `${server.origin}/redirect?to=${encodeURIComponent(target)}`;
    await expect(client.send(request(to("http://169.254.169.254/latest/meta-data/")), signal)).rejects.toMatchObject({
      code: "HTTP_DESTINATION_FORBIDDEN",
      details: { range: "linkLocal" },
    });
    expect(await codeOf(client.send(request(to(`http://127.0.0.2:${server.port}/echo`)), signal))).toBe("HTTP_DESTINATION_FORBIDDEN");
    expect(await codeOf(client.send(request(to("http://[::1]/")), signal))).toBe("HTTP_DESTINATION_FORBIDDEN");
    const followed = await client.send(request(to("/echo")), signal);
    expect(followed.status).toBe(200);
    expect(JSON.parse(followed.body).path).toBe("/echo");
  });

  it("turns a POST into a GET without a body after a 303, and keeps it after a 307", async () => {
    const client = new GuardedHttpClient({ allow: allowOf("127.0.0.1") });
    const post = (status: number) => request(`${server.origin}/redirect?to=%2Fecho&status=${status}`, { method: "POST", body: ['{"a":1}'], headers: [["Content-Type", ["application/json"]]] });
    expect(JSON.parse((await client.send(post(303), signal)).body)).toMatchObject({ method: "GET", body: "" });
    expect(JSON.parse((await client.send(post(307), signal)).body)).toMatchObject({ method: "POST", body: '{"a":1}' });
  });

  it("always asks for an uncompressed body, whatever Accept-Encoding the request carries", async () => {
    const client = new GuardedHttpClient({ allow: allowOf("127.0.0.1/32") });
    const plain = await client.send(request(`${server.origin}/echo`), signal);
    expect(JSON.parse(plain.body).headers["accept-encoding"]).toBe("identity");
    const asked = await client.send(request(`${server.origin}/echo`, { headers: [["Accept-Encoding", ["gzip, br"]]] }), signal);
    expect(JSON.parse(asked.body).headers["accept-encoding"]).toBe("identity");
  });

  it("fails with HTTP_RESPONSE_TOO_LARGE past maxResponseBytes, declared or streamed", async () => {
    const client = new GuardedHttpClient({ allow: allowOf("127.0.0.1") });
    expect(await codeOf(client.send(request(`${server.origin}/bytes/5000`, { maxResponseBytes: 4096 }), signal))).toBe("HTTP_RESPONSE_TOO_LARGE");
    expect(await codeOf(client.send(request(`${server.origin}/declared/5000`, { maxResponseBytes: 4096 }), signal))).toBe("HTTP_RESPONSE_TOO_LARGE");
    expect((await client.send(request(`${server.origin}/bytes/4096`, { maxResponseBytes: 4096 }), signal)).body.length).toBe(4096);
    await expect(client.send(request(`${server.origin}/bytes/5000`, { maxResponseBytes: 4096, responseLimit: "WEFT_MAX_NODE_OUTPUT_BYTES" }), signal)).rejects.toMatchObject({
      code: "HTTP_RESPONSE_TOO_LARGE",
      message: "the response body is larger than 4096 bytes (WEFT_MAX_NODE_OUTPUT_BYTES)",
    });
  });

  it("fails with HTTP_TIMEOUT when the answer does not come, or does not finish, within timeoutMs", async () => {
    const client = new GuardedHttpClient({ allow: allowOf("127.0.0.1") });
    expect(await codeOf(client.send(request(`${server.origin}/silent`, { timeoutMs: 300 }), signal))).toBe("HTTP_TIMEOUT");
    expect(await codeOf(client.send(request(`${server.origin}/slow`, { timeoutMs: 300 }), signal))).toBe("HTTP_TIMEOUT");
  });

  it("counts the name's lookup in timeoutMs (HTTP_TIMEOUT) and stops it when the run is cancelled", async () => {
    const silent: ResolveHost = () => new Promise(() => undefined);
    const client = new GuardedHttpClient({ allow: allowOf("127.0.0.0/8"), resolve: silent });
    expect(await codeOf(client.send(request("http://slow-dns.test/", { timeoutMs: 50 }), signal))).toBe("HTTP_TIMEOUT");
    const cancelled = new AbortController();
    const sending = client.send(request("http://slow-dns.test/"), cancelled.signal);
    cancelled.abort();
    await expect(sending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("fills a secret at the call, reading it once however often the request names it, and shows [secret] wherever the answer repeats it", async () => {
    const reads: string[] = [];
    const client = new GuardedHttpClient({ allow: allowOf("127.0.0.1"), readSecret: async (name) => (reads.push(name), readSecret(name)) });
    const response = await client.send(request([`${server.origin}/echo?key=`, { secret: "API_KEY" }], { headers: [["Authorization", ["Bearer ", { secret: "API_KEY" }]]] }), signal);
    expect(server.received.at(-1)!.headers["authorization"]).toBe("Bearer sk-test-0123456789");
    expect(server.received.at(-1)!.path).toBe("/echo?key=sk-test-0123456789");
    expect(reads).toEqual(["API_KEY"]);
    expect(JSON.stringify(response)).not.toContain("sk-test-0123456789");
    expect(response.headers["x-echo-authorization"]).toBe("Bearer [secret]");
    expect(JSON.parse(response.body).path).toBe("/echo?key=[secret]");
    expect(await codeOf(client.send(request(`${server.origin}/echo`, { headers: [["X-Key", [{ secret: "MISSING" }]]] }), signal))).toBe("SECRET_NOT_FOUND");
  });

  it("does not carry a secret or Authorization header to another origin after a redirect", async () => {
    const resolve: ResolveHost = async () => [{ address: "127.0.0.1", family: 4 }];
    const client = new GuardedHttpClient({ allow: allowOf("127.0.0.0/8"), readSecret, resolve });
    const other = `http://other.test:${server.port}/echo`;
    const response = await client.send(
      request(`${server.origin}/redirect?to=${encodeURIComponent(other)}`, { headers: [["X-Key", [{ secret: "API_KEY" }]], ["Authorization", ["Basic abc"]], ["X-Plain", ["kept"]]] }),
      signal,
    );
    const echoed = JSON.parse(response.body).headers;
    expect([echoed["x-key"], echoed["authorization"], echoed["x-plain"]]).toEqual([undefined, undefined, "kept"]);
  });

  it("refuses URLs that are not http or https, or carry a user name", async () => {
    const client = new GuardedHttpClient({ allow: allowOf("127.0.0.1") });
    expect(await codeOf(client.send(request("file:///etc/passwd"), signal))).toBe("HTTP_URL_INVALID");
    expect(await codeOf(client.send(request(`http://user:pw@127.0.0.1:${server.port}/echo`), signal))).toBe("HTTP_URL_INVALID");
  });
});
