import { builtInRegistry, prepareRun, runWorkflow, type PreparedRun, type RunEvent, type Workflow } from "@weft/engine";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MistralMockServer } from "../testing/mistral-mock-server.js";
import { MistralLlmProvider } from "./mistral-llm-provider.js";

let server: MistralMockServer;

beforeEach(async () => {
  server = await MistralMockServer.start({ apiKey: "k" });
});

afterEach(async () => {
  await server.stop();
});

const schema = { type: "object", properties: { city: { type: "string" }, population: { type: "integer" } }, required: ["city", "population"] };

/** q ─► extract (llm, schema) ─► out */
function workflow(): Workflow {
  return {
    name: "extract",
    prompts: {},
    outputFormat: "",
    nodes: [
      { id: "q", type: "input", content: "Paris has about 2.1 million people." },
      { id: "extract", type: "llm", provider: "mistral", model: "mistral-small-latest", prompt: "Extract the city: {input}", config: { schema } },
      { id: "out", type: "output" },
    ],
    edges: [
      { id: "a", source: "q", target: "extract" },
      { id: "b", source: "extract", target: "out" },
    ],
  };
}

function prepared(): PreparedRun {
  const result = prepareRun(workflow(), {}, { registry: builtInRegistry });
  if (!result.ok) throw new Error(result.violations.map((violation) => violation.message).join("; "));
  return result.run;
}

describe("an llm node with a schema, against Mistral's wire protocol", () => {
  it("asks for json_schema output, validates the reply and repairs it once with the error", async () => {
    server.enqueueChat({ kind: "reply", text: '{"city": "Paris", "population": "lots"}' });
    server.enqueueChat({ kind: "reply", text: '{"city": "Paris", "population": 2100000}' });
    const events: RunEvent[] = [];
    const provider = new MistralLlmProvider({ apiKey: "k", serverURL: server.url, timeoutMs: 5_000 });
    const outcome = await runWorkflow({
      runId: "r",
      prepared: prepared(),
      registry: builtInRegistry,
      providers: new Map([["mistral", provider]]),
      onEvent: (event) => void events.push(event),
    });
    expect(outcome).toMatchObject({ status: "COMPLETED", result: '{"city":"Paris","population":2100000}' });
    expect(server.requests).toHaveLength(2);
    for (const recorded of server.requests) {
      expect(recorded.body.response_format).toEqual({ type: "json_schema", json_schema: { name: "output", schema, strict: true } });
    }
    const repair = (server.requests[1]?.body.messages as Array<{ content: string }>)[0]!.content;
    expect(repair).toContain("does not match the schema: at /population");
    expect(events.find((event) => event.type === "WARNING")).toMatchObject({ code: "PARSE_REPAIR", nodeId: "extract" });
    expect(events.find((event) => event.type === "NODE_COMPLETED" && event.nodeId === "extract")).toMatchObject({ value: { city: "Paris", population: 2100000 } });
  });

  it("fails the node with SCHEMA_MISMATCH when the repaired reply still does not match", async () => {
    server.enqueueChat({ kind: "reply", text: '{"city": 1}' });
    server.enqueueChat({ kind: "reply", text: '{"city": 2}' });
    const provider = new MistralLlmProvider({ apiKey: "k", serverURL: server.url, timeoutMs: 5_000 });
    const outcome = await runWorkflow({ runId: "r", prepared: prepared(), registry: builtInRegistry, providers: new Map([["mistral", provider]]), onEvent: () => undefined });
    expect(outcome.status).toBe("FAILED");
    expect(server.requests).toHaveLength(2);
  });
});
