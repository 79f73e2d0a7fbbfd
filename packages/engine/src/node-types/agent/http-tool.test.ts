import { describe, expect, it } from "vitest";
import { checkNodeConfig } from "../../document/node-config.check.js";
import type { JsonValue } from "../../model/json-value.js";
import { validateWorkflow } from "../../rules/validate-workflow.js";
import { FakeHttpClient, type SentRequest } from "../../testing/fake-http.js";
import { runPipeline } from "../../testing/pipeline-harness.js";
import { pipeline } from "../../testing/pipeline-builder.js";
import { builtInRegistry } from "../built-in-node-types.js";

/** An http tool (SPEC-V3 §3): a request whose templates see the call's arguments as {args.<name>}. */
const forecastTool = (extra: Record<string, JsonValue> = {}): Record<string, JsonValue> => ({
  type: "http",
  name: "forecast",
  description: "The weather forecast of a city.",
  parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } }, required: ["city"] },
  request: { url: "https://weather.example/v1/forecast?city={args.city}&days={args.days}&q={input}", headers: { "X-Key": "{secret.WEATHER}" } },
  ...extra,
});

const weatherServer = () =>
  new FakeHttpClient(
    (request: SentRequest) => {
      const city = new URL(request.url).searchParams.get("city");
      return city === "Nowhere" ? { status: 404, headers: { "content-type": "application/json" }, body: '{"error":"unknown city"}' } : { status: 200, headers: { "content-type": "application/json" }, body: `{"city":"${city}","sky":"sunny"}` };
    },
    { WEATHER: "weather-key-123" },
  );

/** q ─► research (agent: forecast) ─► out */
const agentWorkflow = (replies: JsonValue[], tool = forecastTool()) =>
  pipeline()
    .input("q", "Gwangju weather?")
    .model("research", "agent", replies, { tools: [tool] }, { prompt: "Task: {input}" })
    .output("out")
    .edges("q>research", "research>out")
    .build();

const calls = (...list: Array<[string, JsonValue]>) => ({ toolCalls: list.map(([name, args]) => ({ name, arguments: args })) });

describe("http tools (SPEC-V3 §3)", () => {
  it("an agent on the scripted model calls an http tool: the request is rendered with {args.<name>}, the secret filled by the client, status and body fed back", async () => {
    const http = weatherServer();
    const workflow = agentWorkflow([calls(["forecast", { city: "Gwangju", days: 2 }], ["forecast", { city: "Nowhere" }]), "Sunny in Gwangju."]);
    expect(validateWorkflow(workflow, { registry: builtInRegistry })).toEqual([]);
    const run = await runPipeline({ workflow, tools: { http } });
    expect(run.outcome.result).toBe("Sunny in Gwangju.");
    expect(http.sent.map((request) => [request.url, request.headers["x-key"]]).sort()).toEqual([
      ["https://weather.example/v1/forecast?city=Gwangju&days=2&q=Gwangju%20weather%3F", "weather-key-123"],
      ["https://weather.example/v1/forecast?city=Nowhere&days=&q=Gwangju%20weather%3F", "weather-key-123"],
    ]);
    const results = run.of("TOOL_RESULT").map(({ ok, summary }) => [ok, summary]).sort();
    expect(results).toEqual([
      [false, expect.stringContaining("HTTP_STATUS")],
      [true, '{"status":200,"body":{"city":"Gwangju","sky":"sunny"}}'],
    ]);
    expect(JSON.stringify(run.events)).not.toContain("weather-key-123");
  });

  it("a tool node calls an http tool with CEL arguments, without a model", async () => {
    const http = weatherServer();
    const workflow = pipeline()
      .input("q", "Busan")
      .node("call", "tool", { tool: forecastTool(), arguments: { city: "input", days: "3" } })
      .output("out")
      .edges("q>call", "call>out")
      .build();
    const run = await runPipeline({ workflow, tools: { http } });
    expect(JSON.parse(run.outcome.result!)).toEqual({ status: 200, body: { city: "Busan", sky: "sunny" } });
    expect(http.sent[0]!.url).toBe("https://weather.example/v1/forecast?city=Busan&days=3&q=Busan");
  });

  it("fails the call with HTTP_UNAVAILABLE in a run without an HTTP client, and with TOOL_ARGUMENTS_INVALID before any request", async () => {
    const call = (args: Record<string, JsonValue>) => pipeline().input("q", "Busan").node("call", "tool", { tool: forecastTool(), arguments: args }).output("out").edges("q>call", "call>out").build();
    expect((await runPipeline({ workflow: call({ city: "input" }) })).of("NODE_FAILED")[0]!.error.code).toBe("HTTP_UNAVAILABLE");
    const http = weatherServer();
    expect((await runPipeline({ workflow: call({ days: "1" }), tools: { http } })).of("NODE_FAILED")[0]!.error.code).toBe("TOOL_ARGUMENTS_INVALID");
    expect(http.sent).toEqual([]);
  });

  it("refuses at edit time parameters that are not an object schema, a request the http node would refuse (a secret sent to a host the model names), and a name another tool has", () => {
    const node = (tools: JsonValue[]) => agentWorkflow(["done"]).nodes.map((entry) => (entry.id === "research" ? { ...entry, config: { ...entry.config, tools } } : entry))[1]!;
    const paths = (tools: JsonValue[]) => checkNodeConfig(node(tools), { registry: builtInRegistry }).map((issue) => issue.path);
    expect(paths([forecastTool({ parameters: { type: "string" } })])).toEqual(["tools[0].parameters"]);
    expect(paths([forecastTool({ request: { url: "https://x.example/", timeoutMs: 120_000 } })])).toEqual(["tools[0].request.timeoutMs"]);
    // A model's {args.url} cannot choose where the author's secret goes.
    expect(paths([forecastTool({ request: { url: "{args.url}", headers: { "X-Key": "{secret.WEATHER}" } } })])).toEqual(["tools[0].request.url"]);
    const twice = agentWorkflow(["done"], forecastTool());
    twice.nodes[1]!.config = { ...twice.nodes[1]!.config, tools: [forecastTool(), forecastTool()] };
    expect(validateWorkflow(twice, { registry: builtInRegistry }).map((violation) => [violation.code, violation.field])).toEqual([["TOOL_NAME_DUPLICATE", "tools[1].name"]]);
  });
});
