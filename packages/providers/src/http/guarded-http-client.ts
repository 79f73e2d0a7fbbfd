import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { isAbortError, WeftError, type HttpClient, type HttpRequest, type HttpResponse, type SecretText } from "@weft/engine";
import { addressRefusal, allowedAddresses, forbidden, NOTHING_ALLOWED, systemResolver, urlHost, type HttpAllowList, type ResolveHost } from "./destination-guard.js";
import { readSecrets, type SecretReader } from "../config/secret-references.js";
import { SecretRedactor } from "./secret-redactor.js";

export interface GuardedHttpClientOptions {
  /** WEFT_HTTP_ALLOW, parsed (parseHttpAllow). */
  allow?: HttpAllowList;
  /** The system's resolver unless a test gives its own. */
  resolve?: ResolveHost;
  /** A secret's value by name, null when none is stored (SECRET_NOT_FOUND). */
  readSecret?: SecretReader;
}

/** Redirects followed before HTTP_REQUEST_FAILED: what browsers allow is 20; an API needs few. */
export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Headers that prove who the caller is: not sent on to another origin after a redirect (as fetch does with Authorization).
const CREDENTIAL_HEADERS = new Set(["authorization", "cookie", "proxy-authorization"]);

interface Hop {
  method: string;
  url: URL;
  headers: Array<[string, string, boolean]>;
  body: string | null;
}

/**
 * The HTTP client of the `http` node and `http` tools (SPEC-V3 §3), on node:http. Every connection,
 * redirects included, goes through the destination guard: the name is resolved once in the socket's
 * `lookup`, the addresses are checked, and the socket connects to exactly those (no second resolution a
 * rebinding DNS server could answer differently); the address actually connected is checked again. The
 * time limit covers the whole exchange (HTTP_TIMEOUT), the body is counted as it arrives
 * (HTTP_RESPONSE_TOO_LARGE), and `{secret.NAME}` pieces are filled here, at the call, and replaced by
 * `[secret]` wherever the response or an error message repeats them.
 */
export class GuardedHttpClient implements HttpClient {
  readonly #allow: HttpAllowList;
  readonly #resolve: ResolveHost;
  readonly #readSecret: SecretReader;

  constructor(options: GuardedHttpClientOptions = {}) {
    this.#allow = options.allow ?? NOTHING_ALLOWED;
    this.#resolve = options.resolve ?? systemResolver;
    this.#readSecret = options.readSecret ?? (async () => null);
  }

  async send(request: HttpRequest, signal: AbortSignal): Promise<HttpResponse> {
    const redactor = new SecretRedactor();
    const deadline = AbortSignal.timeout(request.timeoutMs);
    const both = AbortSignal.any([signal, deadline]);
    try {
      let hop = await this.#firstHop(request, redactor);
      for (let redirects = 0; ; redirects += 1) {
        const response = await this.#exchange(hop, request, both);
        const location = response.headers["location"];
        if (!REDIRECT_STATUSES.has(response.status) || location === undefined) {
          return { status: response.status, headers: redactor.headers(response.headers), body: redactor.text(response.body) };
        }
        if (redirects === MAX_REDIRECTS) throw new WeftError("HTTP_REQUEST_FAILED", `more than ${MAX_REDIRECTS} redirects`, { audience: "operational" });
        hop = redirected(hop, response.status, location);
      }
    } catch (error) {
      if (deadline.aborted && !signal.aborted) throw new WeftError("HTTP_TIMEOUT", `no complete response within ${request.timeoutMs} ms (timeoutMs)`, { audience: "operational" });
      if (isAbortError(error) || error instanceof WeftError) throw redactor.error(error);
      throw redactor.error(new WeftError("HTTP_REQUEST_FAILED", `the request failed: ${(error as Error).message}`, { audience: "operational" }));
    }
  }

  /** The request with its secrets filled in (each read once; in the URL, URL-encoded), every value given to the redactor. */
  async #firstHop(request: HttpRequest, redactor: SecretRedactor): Promise<Hop> {
    const texts = [request.url, ...request.headers.map(([, value]) => value), ...(request.body === null ? [] : [request.body])];
    const secrets = await readSecrets(texts.flatMap(secretNames), this.#readSecret, redactor);
    const fill = (text: SecretText, encode: (value: string) => string = (value) => value) => text.map((part) => (typeof part === "string" ? part : encode(secrets.get(part.secret)!))).join("");
    return {
      method: request.method,
      url: parseUrl(fill(request.url, encodeURIComponent)),
      headers: request.headers.map(([name, value]) => [name, fill(value), secretNames(value).length > 0]),
      body: request.body === null ? null : fill(request.body),
    };
  }

  /** One request and its response, on a connection the guard chose. */
  async #exchange(hop: Hop, limit: Pick<HttpRequest, "maxResponseBytes" | "responseLimit">, signal: AbortSignal): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const host = urlHost(hop.url);
    const addresses = await allowedAddresses(host, this.#allow, this.#resolve, signal);
    const headers: Record<string, string> = {};
    for (const [name, value] of hop.headers) if (name.toLowerCase() !== "accept-encoding") headers[name] = value;
    // No compressed body is decoded, so none is asked for, whatever the request says (the settings refuse the header).
    headers["Accept-Encoding"] = "identity";
    const options: RequestOptions = { method: hop.method, headers, signal, agent: false, lookup: pinnedLookup(addresses) };
    const send = hop.url.protocol === "https:" ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(hop.url, options, (response) => {
        readBody(response, limit).then((body) => resolve({ status: response.statusCode ?? 0, headers: headerRecord(response), body }), reject);
      });
      req.on("error", reject);
      this.#checkConnected(req, host, reject);
      req.end(hop.body ?? undefined);
    });
  }

  /** The address the socket reached, checked again: what the guard allowed is what was connected. */
  #checkConnected(req: ClientRequest, host: string, reject: (error: Error) => void): void {
    req.once("socket", (socket) => {
      socket.once("connect", () => {
        const address = socket.remoteAddress;
        const refusal = address === undefined ? "unknown" : this.#allow.hosts.has(host) ? null : addressRefusal(address, this.#allow);
        if (refusal === null) return;
        const error = forbidden(host, address ?? "?", refusal);
        req.destroy(error);
        reject(error);
      });
    });
  }
}

function secretNames(text: SecretText): string[] {
  return text.flatMap((part) => (typeof part === "string" ? [] : [part.secret]));
}

function parseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WeftError("HTTP_URL_INVALID", `"${text.slice(0, 200)}" is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new WeftError("HTTP_URL_INVALID", `only http and https URLs can be requested, not ${url.protocol}`);
  if (url.username !== "" || url.password !== "") throw new WeftError("HTTP_URL_INVALID", "a URL may not hold a user name or password: send them in a header");
  return url;
}

/** The next hop after a redirect: 303 (and 301/302 after a POST) become GET without a body, as browsers do. */
function redirected(hop: Hop, status: number, location: string): Hop {
  let url: URL;
  try {
    url = parseUrl(new URL(location, hop.url).href);
  } catch (error) {
    throw new WeftError("HTTP_REQUEST_FAILED", `a redirect to an unusable location: ${(error as Error).message}`, { audience: "operational" });
  }
  const toGet = (status === 303 && hop.method !== "HEAD") || ((status === 301 || status === 302) && hop.method === "POST");
  const sameOrigin = url.origin === hop.url.origin;
  const headers = hop.headers.filter(([name, , secret]) => {
    const lower = name.toLowerCase();
    if (toGet && (lower === "content-type" || lower === "content-length")) return false;
    return sameOrigin || (!secret && !CREDENTIAL_HEADERS.has(lower));
  });
  return { method: toGet ? "GET" : hop.method, url, headers, body: toGet ? null : hop.body };
}

/** Connects to the addresses the guard allowed, whatever Node asks (one address, or all for happy eyeballs). */
function pinnedLookup(addresses: ReadonlyArray<{ address: string; family: number }>): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((entry) => entry.family === options.family) : addresses;
    const list = wanted.length > 0 ? wanted : addresses;
    if (options.all) (callback as (error: null, list: Array<{ address: string; family: number }>) => void)(null, [...list]);
    else callback(null, list[0]!.address, list[0]!.family);
  };
}

/** The body, read no further than the limit: a larger one fails as soon as it says so or goes past it. */
async function readBody(response: IncomingMessage, limit: Pick<HttpRequest, "maxResponseBytes" | "responseLimit">): Promise<string> {
  const maxBytes = limit.maxResponseBytes;
  const declared = Number(response.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > maxBytes) {
      response.destroy();
      throw tooLarge(limit);
    }
    chunks.push(chunk);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

function tooLarge(limit: Pick<HttpRequest, "maxResponseBytes" | "responseLimit">): WeftError {
  return new WeftError("HTTP_RESPONSE_TOO_LARGE", `the response body is larger than ${limit.maxResponseBytes} bytes (${limit.responseLimit})`);
}

function headerRecord(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(name === "set-cookie" ? "\n" : ", ") : value;
  }
  return headers;
}
