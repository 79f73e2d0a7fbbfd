import { TERMINAL_EVENT_TYPES, type LlmProvider, type LlmProviders, type RunEvent } from "@weft/engine";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { RunEventMessage } from "../pubsub.js";
import type { RunQueueStats } from "../queue/run-queue.js";
import { errorCodeOf, observeCalls } from "./provider-calls.js";

/** Seconds: from a 1 ms event hop to a 2-minute model call. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const LAG_BUCKETS = [0.0005, 0.001, 0.002, 0.003, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];
/** Seconds a person takes: a second to a week. */
const WAIT_BUCKETS = [1, 10, 60, 300, 900, 3600, 4 * 3600, 86_400, 3 * 86_400, 7 * 86_400];

export interface MetricSources {
  /** Runs by status, read from the database at scrape time (every process sees the same figures). */
  runCounts(): Promise<Record<string, number>>;
  /** Tasks for people by status, read from the database at scrape time. */
  taskCounts(): Promise<Record<string, number>>;
  /** This process's view of the run queue: waiting in the whole queue, executing here. */
  queue(): RunQueueStats;
}

/**
 * The process's Prometheus metrics (prom-client), served at GET /metrics. One registry per app, so
 * several apps in one process (tests) do not mix their figures. Node, provider, token and retry figures
 * are counted where runs execute (worker processes); event lag where subscribers are served (API
 * processes); run counts and queue depth are read at scrape time.
 */
export class WeftMetrics {
  readonly registry = new Registry();
  readonly #nodeSeconds: Histogram<"node_type" | "status">;
  readonly #providerSeconds: Histogram<"provider" | "model" | "outcome">;
  readonly #tokens: Counter<"provider" | "model" | "kind">;
  readonly #cost: Counter<"provider" | "model">;
  readonly #retries: Counter<"code">;
  readonly #runsEnded: Counter<"status">;
  readonly #resumed: Counter;
  readonly #eventLag: Histogram;
  readonly #taskWait: Histogram<"outcome">;
  readonly #delivered = new WeakSet<RunEventMessage>();
  /**
   * Run → node → type, from NODE_STARTED, for the node's end (NODE_COMPLETED and NODE_FAILED carry no type);
   * a run's entry goes when its execution here ends — finished, or waiting for a person, when it leaves
   * this process (a node that completes after the wait is counted with type "unknown").
   */
  readonly #nodeTypes = new Map<string, Map<string, string>>();

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: "weft_" });
    new Gauge({
      name: "weft_runs",
      help: "Runs in the database by status",
      labelNames: ["status"],
      registers,
      async collect() {
        const counts = await sources.runCounts();
        for (const status of ["QUEUED", "RUNNING", "WAITING", "COMPLETED", "FAILED", "CANCELLED"]) this.set({ status }, counts[status] ?? 0);
      },
    });
    new Gauge({
      name: "weft_human_tasks",
      help: "Tasks for people in the database by status (OPEN: waiting for someone)",
      labelNames: ["status"],
      registers,
      async collect() {
        const counts = await sources.taskCounts();
        for (const status of ["OPEN", "COMPLETED", "EXPIRED", "CANCELLED"]) this.set({ status }, counts[status] ?? 0);
      },
    });
    new Gauge({
      name: "weft_run_queue_depth",
      help: "Runs waiting in the queue (state=waiting) and executing in this process (state=executing)",
      labelNames: ["state"],
      registers,
      collect() {
        const stats = sources.queue();
        this.set({ state: "waiting" }, stats.queued);
        this.set({ state: "executing" }, stats.running);
      },
    });
    this.#nodeSeconds = new Histogram({ name: "weft_node_duration_seconds", help: "Node executions, start to end", labelNames: ["node_type", "status"], buckets: LATENCY_BUCKETS, registers });
    this.#providerSeconds = new Histogram({
      name: "weft_provider_call_duration_seconds",
      help: "Model provider calls (each attempt), by outcome",
      labelNames: ["provider", "model", "outcome"],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#tokens = new Counter({ name: "weft_tokens_total", help: "Tokens used by finished nodes", labelNames: ["provider", "model", "kind"], registers });
    this.#cost = new Counter({ name: "weft_cost_usd_total", help: "US dollars spent on priced model calls by finished nodes", labelNames: ["provider", "model"], registers });
    this.#retries = new Counter({ name: "weft_retries_total", help: "Provider retries and parse repairs", labelNames: ["code"], registers });
    this.#runsEnded = new Counter({ name: "weft_runs_ended_total", help: "Runs ended in this process, by status", labelNames: ["status"], registers });
    this.#resumed = new Counter({ name: "weft_runs_resumed_total", help: "Runs resumed in this process after their worker stopped", registers });
    this.#taskWait = new Histogram({
      name: "weft_human_task_wait_seconds",
      help: "From a task's opening to its completion (outcome=completed) or expiry (outcome=expired), counted where its run goes on",
      labelNames: ["outcome"],
      buckets: WAIT_BUCKETS,
      registers,
    });
    this.#eventLag = new Histogram({
      name: "weft_event_lag_seconds",
      help: "From a run event's emission (on the worker) to its delivery to a live subscriber of this process",
      buckets: LAG_BUCKETS,
      registers,
    });
  }

  /** Every event of a run executing in this process. */
  observeEvent(event: RunEvent): void {
    switch (event.type) {
      case "NODE_STARTED": {
        const types = this.#nodeTypes.get(event.runId) ?? new Map<string, string>();
        this.#nodeTypes.set(event.runId, types.set(event.nodeId, event.nodeType));
        break;
      }
      case "NODE_COMPLETED":
      case "NODE_FAILED": {
        const types = this.#nodeTypes.get(event.runId);
        const nodeType = types?.get(event.nodeId) ?? "unknown";
        types?.delete(event.nodeId);
        const { startedAt, finishedAt, usage, provider, model, costUsd } = event.details;
        if (startedAt && finishedAt) this.#nodeSeconds.observe({ node_type: nodeType, status: event.type === "NODE_COMPLETED" ? "completed" : "failed" }, secondsBetween(startedAt, finishedAt));
        if (usage && provider) {
          const labels = { provider, model: model ?? "" };
          this.#tokens.inc({ ...labels, kind: "prompt" }, usage.promptTokens);
          this.#tokens.inc({ ...labels, kind: "completion" }, usage.completionTokens);
        }
        if (costUsd !== undefined && costUsd > 0 && provider) this.#cost.inc({ provider, model: model ?? "" }, costUsd);
        break;
      }
      case "WARNING":
        if (event.code === "PROVIDER_RETRY" || event.code === "PARSE_REPAIR") this.#retries.inc({ code: event.code });
        break;
      case "RUN_RESUMED":
        this.#resumed.inc();
        break;
      case "HUMAN_TASK_COMPLETED":
        this.#taskWait.observe({ outcome: event.expired ? "expired" : "completed" }, secondsBetween(event.openedAt, event.completedAt));
        break;
      case "RUN_COMPLETED":
      case "RUN_FAILED":
      case "RUN_CANCELLED":
        this.#runsEnded.inc({ status: event.type.slice("RUN_".length) });
        this.#nodeTypes.delete(event.runId);
        break;
      case "RUN_WAITING":
        this.#nodeTypes.delete(event.runId);
        break;
      default:
        break;
    }
  }

  /**
   * An event of a run nested in a node (a workflow tool's inline run): its nodes count as any node does
   * (durations, tokens, cost by model, retries), but it is no run of its own — its start, end or wait
   * would count each tool call as one more run ended; the calling run's events count that.
   */
  observeNestedEvent(event: RunEvent): void {
    if (TERMINAL_EVENT_TYPES.has(event.type)) this.#nodeTypes.delete(event.runId);
    else if (!event.type.startsWith("RUN_")) this.observeEvent(event);
  }

  /**
   * A live event handed to the subscribers of this process: observed once per event (its first delivery),
   * not once per subscriber, which cost a thousand identical observations per event with a thousand
   * subscribers of one run (they get it in the same turn, from the same message object).
   */
  observeDelivery(message: RunEventMessage): void {
    if (this.#delivered.has(message)) return;
    this.#delivered.add(message);
    const lag = (Date.now() - Date.parse(message.at)) / 1000;
    if (Number.isFinite(lag) && lag >= 0) this.#eventLag.observe(lag);
  }

  /** The providers, each call timed (complete, or a stream from its first request to its last chunk). */
  instrument(providers: LlmProviders): LlmProviders {
    return new Map([...providers].map(([id, provider]) => [id, this.#timed(provider)]));
  }

  #timed(provider: LlmProvider): LlmProvider {
    const histogram = this.#providerSeconds;
    return observeCalls(provider, (request) => {
      const started = performance.now();
      return (end) =>
        histogram.observe({ provider: provider.id, model: request.model, outcome: "error" in end ? errorCodeOf(end.error) : "ok" }, (performance.now() - started) / 1000);
    });
  }
}

function secondsBetween(from: string, to: string): number {
  return Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000);
}
