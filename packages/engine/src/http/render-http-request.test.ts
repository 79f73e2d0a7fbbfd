import { describe, expect, it } from "vitest";
import type { JsonValue } from "../model/json-value.js";
import { secretTextShown } from "../providers/http-client.js";
import type { TemplateValues } from "../template/node-template.js";
import { renderHttpRequest } from "./render-http-request.js";

const LIMITS = { maxNodeOutputBytes: 1024 * 1024, maxValueDepth: 64 };

function valuesWith(args: Record<string, JsonValue>, input: JsonValue = "q"): TemplateValues {
  return { values: [input], inputsBySource: {}, state: {}, feedback: "", iteration: 0, context: null, outputFormat: "", args };
}

const urlOf = (url: string, args: Record<string, JsonValue>, input?: JsonValue) => secretTextShown(renderHttpRequest({ url }, valuesWith(args, input), LIMITS).url);

describe("the most response bytes a request reads", () => {
  it("is maxResponseBytes, or the node output's limit when that is lower, named for the error", () => {
    const limitOf = (maxResponseBytes: number | undefined, maxNodeOutputBytes: number) => {
      const request = renderHttpRequest({ url: "https://api.example.com/", ...(maxResponseBytes === undefined ? {} : { maxResponseBytes }) }, valuesWith({}), { maxNodeOutputBytes, maxValueDepth: 64 });
      return [request.maxResponseBytes, request.responseLimit];
    };
    expect(limitOf(4096, 1024 * 1024)).toEqual([4096, "maxResponseBytes"]);
    expect(limitOf(10 * 1024 * 1024, 1024 * 1024)).toEqual([1024 * 1024, "WEFT_MAX_NODE_OUTPUT_BYTES"]);
    expect(limitOf(undefined, 65_536)).toEqual([65_536, "WEFT_MAX_NODE_OUTPUT_BYTES"]);
    expect(limitOf(65_536, 65_536)).toEqual([65_536, "maxResponseBytes"]);
  });
});

describe("a value put into a request's URL", () => {
  it("stays inside its query parameter: & = # and ? are percent-encoded", () => {
    const url = urlOf("https://api.example.com/forecast?city={args.city}&days=3", { city: "x&days=365#frag?admin=1" });
    expect(url).toBe("https://api.example.com/forecast?city=x%26days%3D365%23frag%3Fadmin%3D1&days=3");
    const parsed = new URL(url);
    expect(parsed.searchParams.get("city")).toBe("x&days=365#frag?admin=1");
    expect(parsed.searchParams.getAll("days")).toEqual(["3"]);
    expect(parsed.hash).toBe("");
  });

  it("stays inside its path segment: slashes and dots cannot climb to another path", () => {
    const url = urlOf("https://api.example.com/files/{args.name}/meta", { name: "a/../../admin" });
    expect(url).toBe("https://api.example.com/files/a%2F..%2F..%2Fadmin/meta");
    expect(new URL(url).pathname).toBe("/files/a%2F..%2F..%2Fadmin/meta");
  });

  it("cannot change the host, and a number, a lone surrogate or text that looks like a secret reference is encoded as text", () => {
    expect(urlOf("https://{args.sub}.example.com/", { sub: "evil.com/x?" })).toBe("https://evil.com%2Fx%3F.example.com/");
    expect(urlOf("https://api.example.com/?n={args.n}&s={args.s}", { n: 3, s: "\uD800" })).toBe("https://api.example.com/?n=3&s=%EF%BF%BD");
    const request = renderHttpRequest({ url: "https://api.example.com/?q={args.q}&key={secret.KEY}" }, valuesWith({ q: "{secret.KEY}" }), LIMITS);
    expect(request.url).toEqual(["https://api.example.com/?q=%7Bsecret.KEY%7D&key=", { secret: "KEY" }]);
  });

  it("is the whole URL, as it is, when the template is that one placeholder (the host's guard checks it as any other)", () => {
    expect(urlOf("{input}", {}, "https://api.example.com/a/b?c=d&e=f#g")).toBe("https://api.example.com/a/b?c=d&e=f#g");
    expect(urlOf("{args.url}", { url: "https://api.example.com/x?y=1" })).toBe("https://api.example.com/x?y=1");
    expect(urlOf(" {args.url}", { url: "https://api.example.com/x?y=1" })).toBe(" https%3A%2F%2Fapi.example.com%2Fx%3Fy%3D1");
  });

  it("leaves header values and the body as text", () => {
    const request = renderHttpRequest({ url: "https://api.example.com/", headers: { "X-City": "{args.city}" }, body: "city={args.city}" }, valuesWith({ city: "a&b" }), LIMITS);
    expect(request.headers).toEqual([["X-City", ["a&b"]]]);
    expect(request.body).toEqual(["city=a&b"]);
  });
});
