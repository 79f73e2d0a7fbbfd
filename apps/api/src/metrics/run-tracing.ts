import { context, SpanStatusCode, trace, type Span, type Tracer } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { RunEvent } from "@weft/engine";
import type { Env } from "../env.js";

/** Model node types whose spans carry the GenAI attributes (they call a model provider). */
const GENAI_OPERATION = "chat";

/**
 * OpenTelemetry traces of the runs executed in this process: one span per run (per execution: a resumed
 * run's new attempt is a new span with `weft.run.attempt`), a child span per node invocation, and under a
 * node that called a model a `chat <model>` span with OpenTelemetry's GenAI semantic-convention
 * attributes (`gen_ai.operation.name`, `gen_ai.provider.name`, `gen_ai.request.model`,
 * `gen_ai.usage.input_tokens`, `gen_ai.usage.output_tokens`). Spans are built from the run's events, so
 * their times are the events' times. Off unless an OTLP endpoint is configured.
 */
export class RunTracer {
  readonly #tracer: Tracer;
  readonly #runs = new Map<string, Span>();
  readonly #nodes = new Map<string, Span>();

  constructor(
    private readonly provider: BasicTracerProvider,
  ) {
    this.#tracer = provider.getTracer("weft");
  }

  observeEvent(event: RunEvent): void {
    const at = new Date(event.at);
    switch (event.type) {
      case "RUN_STARTED":
      case "RUN_RESUMED": {
        const attempt = event.type === "RUN_RESUMED" ? event.attempt : 1;
        const span = this.#tracer.startSpan("run", { startTime: at, attributes: { "weft.run.id": event.runId, "weft.run.attempt": attempt } });
        this.#runs.set(event.runId, span);
        break;
      }
      case "NODE_STARTED": {
        const parent = this.#runs.get(event.runId);
        const parentContext = parent ? trace.setSpan(context.active(), parent) : context.active();
        const span = this.#tracer.startSpan(
          `node ${event.nodeType}`,
          { startTime: at, attributes: { "weft.run.id": event.runId, "weft.node.id": event.nodeId, "weft.node.type": event.nodeType, "weft.node.invocation": event.invocation } },
          parentContext,
        );
        this.#nodes.set(nodeKey(event.runId, event.nodeId, event.invocation), span);
        break;
      }
      case "NODE_COMPLETED":
      case "NODE_FAILED":
        this.#endNode(event, at);
        break;
      case "RUN_COMPLETED":
      case "RUN_FAILED":
      case "RUN_CANCELLED":
        this.#endRun(event, at);
        break;
      default:
        break;
    }
  }

  async close(): Promise<void> {
    await this.provider.shutdown();
  }

  #endNode(event: Extract<RunEvent, { type: "NODE_COMPLETED" | "NODE_FAILED" }>, at: Date): void {
    const key = nodeKey(event.runId, event.nodeId, event.invocation);
    const span = this.#nodes.get(key);
    if (!span) return;
    this.#nodes.delete(key);
    const { provider, model, usage, retries, startedAt } = event.details;
    if (provider && model) {
      const attributes = {
        "gen_ai.operation.name": GENAI_OPERATION,
        "gen_ai.provider.name": provider,
        "gen_ai.request.model": model,
        ...(usage ? { "gen_ai.usage.input_tokens": usage.promptTokens, "gen_ai.usage.output_tokens": usage.completionTokens } : {}),
        "weft.retries": retries,
      };
      const call = this.#tracer.startSpan(`${GENAI_OPERATION} ${model}`, { startTime: new Date(startedAt), attributes }, trace.setSpan(context.active(), span));
      if (event.type === "NODE_FAILED") call.setStatus({ code: SpanStatusCode.ERROR, message: event.error.code });
      call.end(at);
      span.setAttributes(attributes);
    }
    if (event.type === "NODE_FAILED") span.setStatus({ code: SpanStatusCode.ERROR, message: `${event.error.code}: ${event.error.message}` });
    span.end(at);
  }

  #endRun(event: Extract<RunEvent, { type: "RUN_COMPLETED" | "RUN_FAILED" | "RUN_CANCELLED" }>, at: Date): void {
    const span = this.#runs.get(event.runId);
    if (!span) return;
    this.#runs.delete(event.runId);
    for (const [key, node] of this.#nodes) {
      if (!key.startsWith(`${event.runId}\u0000`)) continue;
      node.end(at);
      this.#nodes.delete(key);
    }
    span.setAttributes({
      "weft.run.status": event.type.slice("RUN_".length),
      "gen_ai.usage.input_tokens": event.usage.promptTokens,
      "gen_ai.usage.output_tokens": event.usage.completionTokens,
    });
    if (event.type === "RUN_FAILED") span.setStatus({ code: SpanStatusCode.ERROR, message: event.error.code });
    span.end(at);
  }
}

function nodeKey(runId: string, nodeId: string, invocation: string): string {
  return `${runId}\u0000${nodeId}\u0000${invocation}`;
}

/** A tracer over the given span processors (tests pass an in-memory exporter's). */
export function runTracerWith(serviceName: string, processors: SpanProcessor[]): RunTracer {
  return new RunTracer(new BasicTracerProvider({ resource: resourceFromAttributes({ "service.name": serviceName }), spanProcessors: processors }));
}

/** OTLP over HTTP when OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT is set; else none. */
export function createRunTracer(env: Pick<Env, "OTEL_EXPORTER_OTLP_ENDPOINT" | "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" | "OTEL_SERVICE_NAME">): RunTracer | null {
  const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (env.OTEL_EXPORTER_OTLP_ENDPOINT ? `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/$/, "")}/v1/traces` : undefined);
  if (!url) return null;
  return runTracerWith(env.OTEL_SERVICE_NAME, [new BatchSpanProcessor(new OTLPTraceExporter({ url }))]);
}
