import { context, SpanStatusCode, trace, type Span, type Tracer } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { LlmProviders, LlmRequest, RunEvent } from "@weft/engine";
import type { Env } from "../env.js";
import { errorCodeOf, observeCalls, type ProviderCallEnd } from "./provider-calls.js";

/** `gen_ai.operation.name` of model calls (and the first word of their spans' names). */
const GENAI_OPERATION = "chat";

/**
 * OpenTelemetry traces of the runs executed in this process: one span per run (per execution: a resumed
 * run's new attempt is a new span with `weft.run.attempt`), a child span per node invocation, and under
 * it one `chat <model>` span per provider call — each attempt of the node's retries is a span of its own
 * (`weft.provider.attempt`; a failed attempt has an error status and `error.type`) — with OpenTelemetry's
 * GenAI semantic-convention attributes (`gen_ai.operation.name`, `gen_ai.provider.name`,
 * `gen_ai.request.model`, `gen_ai.response.model`, `gen_ai.usage.input_tokens`,
 * `gen_ai.usage.output_tokens`); the node span carries the node's totals. Run and node spans are built
 * from the run's events (their times are the events' times), call spans from the providers wrapped by
 * `instrument` (the engine names each call's run, node invocation and attempt: `LlmRequest.origin`).
 * Off unless an OTLP endpoint is configured.
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
        const span = this.#nodeSpan(event.runId, event.nodeId, event.invocation, at);
        span.updateName(`node ${event.nodeType}`);
        span.setAttribute("weft.node.type", event.nodeType);
        break;
      }
      case "NODE_COMPLETED":
      case "NODE_FAILED":
        this.#endNode(event, at);
        break;
      case "RUN_COMPLETED":
      case "RUN_FAILED":
      case "RUN_CANCELLED":
      case "RUN_WAITING":
        this.#endRun(event, at);
        break;
      case "HUMAN_TASK_COMPLETED":
        this.#waitSpan(event);
        break;
      default:
        break;
    }
  }

  /** The providers, each call a `chat <model>` span under the span of the node invocation that made it. */
  instrument(providers: LlmProviders): LlmProviders {
    return new Map([...providers].map(([id, provider]) => [id, observeCalls(provider, (request) => this.#startCall(provider.id, request))]));
  }

  async close(): Promise<void> {
    await this.provider.shutdown();
  }

  #endNode(event: Extract<RunEvent, { type: "NODE_COMPLETED" | "NODE_FAILED" }>, at: Date): void {
    const key = nodeKey(event.runId, event.nodeId, event.invocation);
    const span = this.#nodes.get(key);
    if (!span) return;
    this.#nodes.delete(key);
    const { provider, model, usage, retries } = event.details;
    if (provider && model) {
      span.setAttributes({
        "gen_ai.operation.name": GENAI_OPERATION,
        "gen_ai.provider.name": provider,
        "gen_ai.request.model": model,
        ...(usage ? { "gen_ai.usage.input_tokens": usage.promptTokens, "gen_ai.usage.output_tokens": usage.completionTokens } : {}),
        "weft.retries": retries,
      });
    }
    if (event.type === "NODE_FAILED") span.setStatus({ code: SpanStatusCode.ERROR, message: `${event.error.code}: ${event.error.message}` });
    span.end(at);
  }

  /**
   * The span of a node invocation: created by its NODE_STARTED, or by its first provider call when that
   * comes first (the engine starts a node before a busy event handler has seen its NODE_STARTED).
   */
  #nodeSpan(runId: string, nodeId: string, invocation: string, startTime: Date): Span {
    const key = nodeKey(runId, nodeId, invocation);
    let span = this.#nodes.get(key);
    if (!span) {
      const run = this.#runs.get(runId);
      const attributes = { "weft.run.id": runId, "weft.node.id": nodeId, "weft.node.invocation": invocation };
      span = this.#tracer.startSpan("node", { startTime, attributes }, run ? trace.setSpan(context.active(), run) : context.active());
      this.#nodes.set(key, span);
    }
    return span;
  }

  /** One provider call (one attempt): its span, ended with the reply's model and usage or the error. */
  #startCall(providerId: string, request: LlmRequest): (end: ProviderCallEnd) => void {
    const origin = request.origin;
    const parent = origin ? this.#nodeSpan(origin.runId, origin.nodeId, origin.invocation, new Date()) : null;
    const attributes = {
      "gen_ai.operation.name": GENAI_OPERATION,
      "gen_ai.provider.name": providerId,
      "gen_ai.request.model": request.model,
      ...(origin ? { "weft.run.id": origin.runId, "weft.node.id": origin.nodeId, "weft.node.invocation": origin.invocation, "weft.provider.attempt": origin.attempt } : {}),
    };
    const span = this.#tracer.startSpan(`${GENAI_OPERATION} ${request.model}`, { attributes }, parent ? trace.setSpan(context.active(), parent) : context.active());
    return (end) => {
      if ("error" in end) {
        const code = errorCodeOf(end.error);
        span.setAttribute("error.type", code);
        span.setStatus({ code: SpanStatusCode.ERROR, message: code });
      } else if (end.reply) {
        const { model, usage } = end.reply;
        span.setAttributes({ "gen_ai.response.model": model, ...(usage ? { "gen_ai.usage.input_tokens": usage.promptTokens, "gen_ai.usage.output_tokens": usage.completionTokens } : {}) });
      }
      span.end();
    };
  }

  /**
   * One span per wait for a person (SPEC-V3 §2), from the task's opening to its closing, under the run's
   * span of the execution that goes on with it (the execution that opened it ended WAITING in between).
   */
  #waitSpan(event: Extract<RunEvent, { type: "HUMAN_TASK_COMPLETED" }>): void {
    const run = this.#runs.get(event.runId);
    const attributes = {
      "weft.run.id": event.runId,
      "weft.node.id": event.nodeId,
      "weft.node.invocation": event.invocation,
      "weft.human_task.id": event.taskId,
      "weft.human_task.outcome": event.expired ? "expired" : "completed",
      ...(event.action === null ? {} : { "weft.human_task.action": event.action }),
    };
    const span = this.#tracer.startSpan("human task", { startTime: new Date(event.openedAt), attributes }, run ? trace.setSpan(context.active(), run) : context.active());
    span.end(new Date(event.completedAt));
  }

  #endRun(event: Extract<RunEvent, { type: "RUN_COMPLETED" | "RUN_FAILED" | "RUN_CANCELLED" | "RUN_WAITING" }>, at: Date): void {
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
