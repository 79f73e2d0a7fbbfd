import { describe, expect, it } from "vitest";
import { WeftError } from "../../model/errors.js";
import type { JsonValue } from "../../model/json-value.js";
import type { ToolProviders } from "../../providers/tool-providers.js";
import { checkNodeConfig } from "../../document/node-config.check.js";
import { validateWorkflow } from "../../rules/validate-workflow.js";
import { FakeHttpClient, type FakeAnswer, type SentRequest } from "../../testing/fake-http.js";
import { runPipeline } from "../../testing/pipeline-harness.js";
import { pipeline } from "../../testing/pipeline-builder.js";
import { builtInRegistry } from "../built-in-node-types.js";

const SECRETS = { API_KEY: "sk-live-123" };
const client = (answer: (request: SentRequest) => FakeAnswer = () => ({ status: 200, headers: { "content-type": "application/json" }, body: '{"ok":true}' })) =>
  new FakeHttpClient(answer, SECRETS);

/** q ─► call (http) ─[ok]─► out */
const okOnly = (config: Record<string, JsonValue>, question = "weft") =>
  pipeline().input("q", question).node("call", "http", config).output("out").edges("q>call", "call.ok>out").build();

/**
 *  q ─► call (http) ─[ok]────► good (template) ─► j ─► out
 *                └──[error]──► bad (template) ───┘
 */
const bothPorts = (config: Record<string, JsonValue>) =>
  pipeline()
    .input("q", "weft")
    .node("call", "http", config)
    .node("good", "template", { template: "ok {input}" })
    .node("bad", "template", { template: "error {input}" })
    .node("j", "join", { mode: "first" })
    .output("out")
    .edges("q>call", "call.ok>good", "call.error>bad", "good>j", "bad>j", "j>out")
    .build();

describe("http node (SPEC-V3 §3)", () => {
  it("sends a request made from its templates and outputs status, headers and the parsed JSON body on ok", async () => {
    const http = client();
    const workflow = okOnly({ method: "POST", url: "https://api.example.com/items?q={input}", headers: { "X-Trace": "run {input}" }, body: '{"name": {input}}', json: true });
    expect(validateWorkflow(workflow, { registry: builtInRegistry })).toEqual([]);
    const run = await runPipeline({ workflow, tools: { http } });
    expect(http.sent).toEqual([{ method: "POST", url: "https://api.example.com/items?q=weft", headers: { "x-trace": "run weft", "content-type": "application/json" }, body: '{"name": "weft"}' }]);
    expect(JSON.parse(run.outcome.result!)).toEqual({ status: 200, headers: { "content-type": "application/json" }, body: { ok: true } });
    expect(run.of("NODE_COMPLETED").find((event) => event.nodeId === "call")!.ports).toEqual(["ok"]);
  });

  it("keeps a body that is not JSON as text", async () => {
    const http = client(() => ({ status: 200, headers: { "content-type": "text/plain" }, body: "plain words" }));
    const run = await runPipeline({ workflow: okOnly({ url: "https://example.com/" }), tools: { http } });
    expect(JSON.parse(run.outcome.result!)).toEqual({ status: 200, headers: { "content-type": "text/plain" }, body: "plain words" });
  });

  it("routes another status to the error port when it has an edge", async () => {
    const http = client(() => ({ status: 404, headers: { "content-type": "application/json" }, body: '{"error":"missing"}' }));
    const run = await runPipeline({ workflow: bothPorts({ url: "https://example.com/{input}" }), tools: { http } });
    expect(run.outcome.result).toBe('error {"status":404,"headers":{"content-type":"application/json"},"body":{"error":"missing"}}');
    expect(run.of("NODE_SKIPPED").map((event) => event.nodeId)).toContain("good");
  });

  it("fails with HTTP_STATUS on another status when the error port has no edge", async () => {
    const http = client(() => ({ status: 500, body: "down" }));
    const run = await runPipeline({ workflow: okOnly({ url: "https://example.com/" }), tools: { http } });
    const failed = run.of("NODE_FAILED")[0]!;
    expect(failed.error.code).toBe("HTTP_STATUS");
    expect(failed.details.renderedPrompt).toBe("GET https://example.com/");
  });

  it("fills {secret.NAME} only where the settings wrote it, and shows the reference, never the value", async () => {
    const http = client((request) => ({ status: 200, body: `you sent ${request.headers["authorization"]}` }));
    const run = await runPipeline({ workflow: okOnly({ url: "https://example.com/{input}", headers: { Authorization: "Bearer {secret.API_KEY}" } }, "{secret.API_KEY}"), tools: { http } });
    expect(http.sent[0]!.headers["authorization"]).toBe("Bearer sk-live-123");
    // The input that names the secret stays text (percent-encoded, as every value put into a URL): only the workflow's own settings may name one.
    expect(http.sent[0]!.url).toBe("https://example.com/%7Bsecret.API_KEY%7D");
    expect(JSON.stringify(run.events)).not.toContain("sk-live-123");
    expect(run.of("NODE_COMPLETED").find((event) => event.nodeId === "call")!.details.renderedPrompt).toBe(
      "GET https://example.com/%7Bsecret.API_KEY%7D\nAuthorization: Bearer {secret.API_KEY}",
    );
  });

  it("fails with the client's code, HTTP_UNAVAILABLE without a client and SECRET_NOT_FOUND for a secret not stored", async () => {
    const failedCode = async (tools: ToolProviders, config: Record<string, JsonValue> = { url: "https://example.com/" }) =>
      (await runPipeline({ workflow: okOnly(config), tools })).of("NODE_FAILED")[0]!.error.code;
    const refusing = new FakeHttpClient(() => {
      throw new WeftError("HTTP_DESTINATION_FORBIDDEN", "refused");
    });
    expect(await failedCode({ http: refusing })).toBe("HTTP_DESTINATION_FORBIDDEN");
    expect(await failedCode({})).toBe("HTTP_UNAVAILABLE");
    expect(await failedCode({ http: client() }, { url: "https://example.com/", headers: { "X-Key": "{secret.NOPE}" } })).toBe("SECRET_NOT_FOUND");
  });

  it("refuses a header value that a placeholder filled with a line break", async () => {
    const run = await runPipeline({ workflow: okOnly({ url: "https://example.com/", headers: { "X-Name": "{input}" } }, "a\r\nX-Admin: yes"), tools: { http: client() } });
    expect(run.of("NODE_FAILED")[0]!.error.code).toBe("HTTP_HEADER_INVALID");
  });

  it("refuses at edit time a timeout or size over the spec's limits, a header the client owns, and a secret in the body", () => {
    const issues = (config: Record<string, JsonValue>) => checkNodeConfig(okOnly(config).nodes[1]!, { registry: builtInRegistry }).map((issue) => issue.path);
    expect(issues({ url: "https://example.com/", timeoutMs: 60_001 })).toEqual(["timeoutMs"]);
    expect(issues({ url: "https://example.com/", maxResponseBytes: 10 * 1024 * 1024 + 1 })).toEqual(["maxResponseBytes"]);
    expect(issues({ url: "https://example.com/", headers: { Host: "internal" } })).toEqual(["headers.Host"]);
    // The client decodes no compressed body, so it always asks for identity itself.
    expect(issues({ url: "https://example.com/", headers: { "accept-Encoding": "gzip" } })).toEqual([`headers["accept-Encoding"]`]);
    expect(issues({ url: "https://example.com/", body: "key={secret.API_KEY}" })).toEqual(["body"]);
    expect(issues({ url: "https://example.com/", timeoutMs: 60_000, maxResponseBytes: 10 * 1024 * 1024 })).toEqual([]);
  });

  it("refuses at edit time a request with a secret whose URL leaves its scheme or host to a placeholder", () => {
    const issues = (config: Record<string, JsonValue>) => checkNodeConfig(okOnly(config).nodes[1]!, { registry: builtInRegistry }).map((issue) => issue.path);
    const key = { Authorization: "Bearer {secret.API_KEY}" };
    expect(issues({ url: "{input}", headers: key })).toEqual(["url"]);
    expect(issues({ url: "https://{input}/v1", headers: key })).toEqual(["url"]);
    expect(issues({ url: "https://api.{input}.com/v1", headers: key })).toEqual(["url"]);
    expect(issues({ url: "{input}/v1?key={secret.API_KEY}" })).toEqual(["url"]);
    // The host written out, placeholders after it: allowed (they are percent-encoded, so they cannot reach the host).
    expect(issues({ url: "https://api.example.com/v1/{input}?q={input}", headers: key })).toEqual([]);
    expect(issues({ url: "https://api.example.com?key={secret.API_KEY}" })).toEqual([]);
    // Without a secret the whole URL may come from a placeholder: the destination guard checks it as any other.
    expect(issues({ url: "{input}" })).toEqual([]);
  });
});
