import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { SpanStatusCode } from "@opentelemetry/api";
import { createBuiltInRegistry, OfflineLlmProvider, prepareRun, ProviderError, runWorkflow, type LlmProvider, type RunEvent } from "@weft/engine";
import { describe, expect, test } from "vitest";
import { arrows } from "../testing/workflows.js";
import { createRunTracer, runTracerWith, type RunTracer } from "./run-tracing.js";

/**
 * Runs the graph with its events handed to the tracer as the worker does (through `record`, which may
 * be slow, like storing them) and the providers wrapped by the tracer; default graph:
 * in ──▶ g1 (offline echo) ──▶ out.
 */
async function traceOneRun(
  tracer: RunTracer,
  options: { lines?: string[]; provider?: LlmProvider; record?: (event: RunEvent) => void | Promise<void> } = {},
): Promise<RunEvent[]> {
  const registry = createBuiltInRegistry();
  const provider = options.provider ?? new OfflineLlmProvider();
  const prepared = prepareRun(arrows(options.lines ?? ["in->g1->out"], { provider: provider.id }), {}, { registry });
  if (!prepared.ok) throw new Error("the fixture is valid");
  const events: RunEvent[] = [];
  await runWorkflow({
    runId: "run-1",
    prepared: prepared.run,
    registry,
    providers: tracer.instrument(new Map([[provider.id, provider]])),
    options: { sleep: async () => undefined },
    onEvent: (event) => {
      events.push(event);
      tracer.observeEvent(event);
      return options.record?.(event);
    },
  });
  return events;
}

/** Fails each node's first call with a retryable 503, then answers as the offline echo model does. */
function flakyProvider(): LlmProvider {
  const offline = new OfflineLlmProvider();
  return {
    id: "flaky",
    label: "flaky",
    models: [{ id: "echo", label: "echo" }],
    async complete(request, signal) {
      if (request.origin?.attempt === 1) throw new ProviderError("PROVIDER_UNAVAILABLE", "503 Service Unavailable", { retryable: true, status: 503 });
      return offline.complete(request, signal);
    },
    stream: (request, signal) => offline.stream(request, signal),
  };
}

describe("run traces", () => {
  test("a run gives a run span, a span per node under it, and a GenAI chat span under the model node", async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = runTracerWith("weft-test", [new SimpleSpanProcessor(exporter)]);
    await traceOneRun(tracer);
    const spans = exporter.getFinishedSpans();
    await tracer.close();
    const byName = (name: string) => spans.find((span) => span.name === name)!;
    const run = byName("run");
    expect(run.attributes).toMatchObject({ "weft.run.id": "run-1", "weft.run.attempt": 1, "weft.run.status": "COMPLETED" });
    expect(spans.filter((span) => span.name.startsWith("node ")).map((span) => [span.name, span.parentSpanContext?.spanId])).toEqual([
      ["node input", run.spanContext().spanId],
      ["node generation", run.spanContext().spanId],
      ["node output", run.spanContext().spanId],
    ]);
    const chat = byName("chat echo");
    expect(chat.parentSpanContext?.spanId).toBe(byName("node generation").spanContext().spanId);
    expect(chat.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "offline",
      "gen_ai.request.model": "echo",
      "gen_ai.usage.input_tokens": expect.any(Number),
      "gen_ai.usage.output_tokens": expect.any(Number),
    });
  });

  test("each provider call attempt is a span of its own under its node's span: a retried call shows the failed attempt and the one that answered", async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = runTracerWith("weft-test", [new SimpleSpanProcessor(exporter)]);
    //  in ──▶ g1 ──▶ e1 ──▶ out   (two model nodes at once; events are "stored" slowly, so a node may
    //   └───▶ g2 ───┘               call its provider before its NODE_STARTED reaches the tracer)
    const slowly = () => new Promise<void>((resolve) => setTimeout(resolve, 2));
    await traceOneRun(tracer, { lines: ["in->g1->e1->out", "in->g2->e1"], provider: flakyProvider(), record: slowly });
    const spans = exporter.getFinishedSpans();
    await tracer.close();
    for (const nodeId of ["g1", "g2"]) {
      const node = spans.find((span) => span.name === "node generation" && span.attributes["weft.node.id"] === nodeId)!;
      expect(node.attributes).toMatchObject({ "weft.node.type": "generation", "gen_ai.provider.name": "flaky", "weft.retries": 1 });
      const calls = spans.filter((span) => span.parentSpanContext?.spanId === node.spanContext().spanId);
      expect(calls.map((span) => [span.name, span.attributes["weft.provider.attempt"], span.status.code])).toEqual([
        ["chat echo", 1, SpanStatusCode.ERROR],
        ["chat echo", 2, SpanStatusCode.UNSET],
      ]);
      expect(calls[0]!.attributes).toMatchObject({ "gen_ai.operation.name": "chat", "gen_ai.provider.name": "flaky", "gen_ai.request.model": "echo", "error.type": "PROVIDER_UNAVAILABLE" });
      expect(calls[1]!.attributes).toMatchObject({ "gen_ai.response.model": "echo", "gen_ai.usage.input_tokens": expect.any(Number), "weft.node.id": nodeId, "weft.run.id": "run-1" });
    }
    expect(spans.filter((span) => span.name === "node")).toEqual([]);
  });

  test("traces are off without an OTLP endpoint, and exported over OTLP/HTTP to one when configured", async () => {
    expect(createRunTracer({ OTEL_SERVICE_NAME: "weft" })).toBeNull();
    const received: { path: string; body: string }[] = [];
    const collector = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString("latin1")));
      request.on("end", () => {
        received.push({ path: request.url ?? "", body });
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    try {
      const port = (collector.address() as AddressInfo).port;
      const tracer = createRunTracer({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_SERVICE_NAME: "weft-otlp" })!;
      await traceOneRun(tracer);
      await tracer.close();
      expect(received.map((request) => request.path)).toContain("/v1/traces");
      const body = received.map((request) => request.body).join("");
      expect(body).toContain("weft-otlp");
      expect(body).toContain("gen_ai.request.model");
    } finally {
      collector.close();
    }
  });
});
