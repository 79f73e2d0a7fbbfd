import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { createDefaultRegistry, OfflineLlmProvider, prepareRun, runWorkflow, type RunEvent } from "@weft/engine";
import { describe, expect, test } from "vitest";
import { arrows } from "../testing/workflows.js";
import { createRunTracer, runTracerWith, type RunTracer } from "./run-tracing.js";

/** in ──▶ g1 (offline echo) ──▶ out, its events handed to the tracer as the worker does. */
async function traceOneRun(tracer: RunTracer): Promise<RunEvent[]> {
  const registry = createDefaultRegistry();
  const prepared = prepareRun(arrows(["in->g1->out"]), {}, { registry });
  if (!prepared.ok) throw new Error("the fixture is valid");
  const events: RunEvent[] = [];
  await runWorkflow({
    runId: "run-1",
    prepared: prepared.run,
    registry,
    providers: new Map([["offline", new OfflineLlmProvider()]]),
    onEvent: (event) => {
      events.push(event);
      tracer.observeEvent(event);
    },
  });
  return events;
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
