import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createNewWorkflow, stringifyWorkflow, type LlmProvider, type LlmReply, type LlmRequest, type LlmStreamChunk } from "@weft/engine";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
// The API's public entry point, as built (`@weft/api` resolves to its dist): the code production runs,
// with its decorators compiled by tsc. `pnpm bench` builds it first.
import { createApp, loadEnv, type App } from "@weft/api";

export interface ApiHarness {
  app: App;
  request<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>): Promise<T>;
  ws(): Client;
  close(): Promise<void>;
}

const NO_RATE_LIMITS = { WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE: "0", WEFT_RATE_LIMIT_RUNS_PER_MINUTE: "0", WEFT_MAX_WS_CONNECTIONS_PER_CALLER: "0" };

/**
 * The real API on the embedded database in a temp directory, on loopback, auth disabled, logs off, and
 * rate limits off: one address sends every request, and the benchmarks measure the server, not the limits.
 */
export async function startApi(options: { providers?: LlmProvider[]; env?: Record<string, string> } = {}): Promise<ApiHarness> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "weft-bench-api-"));
  const env = loadEnv(
    { PORT: "0", HOST: "127.0.0.1", WEFT_DATA_DIR: dir, WEFT_AUTH: "disabled", LOG_LEVEL: "silent", WEFT_SEED_DEMO: "false", ...NO_RATE_LIMITS, ...options.env },
    {},
  );
  const app = await createApp(env, { providers: options.providers });
  return {
    app,
    async request<T>(query: string, variables?: Record<string, unknown>): Promise<T> {
      const response = await fetch(app.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.json()) as { data?: T; errors?: unknown[] };
      if (body.errors || !body.data) throw new Error(`GraphQL error: ${JSON.stringify(body.errors)}`);
      return body.data;
    },
    ws: () => createClient({ url: app.wsUrl, webSocketImpl: WebSocket, retryAttempts: 0 }),
    async close() {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A stand-in model that answers at once in the ResultParser's format and records, with
 * performance.now(), when each answer was handed back: the moment the node's work is done.
 * `params.delayMs` makes a call wait first (to let a subscriber attach before measuring).
 */
export class StampProvider implements LlmProvider {
  readonly id = "bench";
  readonly label = "Benchmark stamp model (not a language model)";
  readonly models = [{ id: "stamp", label: "stamp", testOnly: true }];
  readonly completedAt: number[] = [];

  async complete(request: LlmRequest, signal: AbortSignal): Promise<LlmReply> {
    const delayMs = typeof request.params["delayMs"] === "number" ? request.params["delayMs"] : 0;
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    signal.throwIfAborted();
    const text = JSON.stringify({ description: "stamped", output: request.inputData.slice(0, 200) });
    this.completedAt.push(performance.now());
    return { text, model: "stamp", usage: null };
  }

  async *stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmStreamChunk> {
    yield { type: "done", reply: await this.complete(request, signal) };
  }
}

export { percentile } from "./measure.js";

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** A GraphQL request over HTTP: the harness's (embedded) or an API process's admin client. */
export type Request = <T>(query: string, variables?: Record<string, unknown>) => Promise<T>;

const IMPORT = "mutation ($document: JSON!) { importWorkflow(document: $document, publish: true) { workflow { id } errors { code message } } }";

/** Imports and publishes a workflow document; its id. A refused import throws with the API's errors. */
export async function importWorkflow(request: Request, document: unknown): Promise<string> {
  const data = await request<{ importWorkflow: { workflow: { id: string } | null; errors: unknown[] } }>(IMPORT, { document });
  if (!data.importWorkflow.workflow) throw new Error(`import refused: ${JSON.stringify(data.importWorkflow.errors)}`);
  return data.importWorkflow.workflow.id;
}

/** Imports and publishes `in ──▶ g1 (offline echo) ──▶ out` (`in` without content of its own); its id. */
export async function importPublishedEcho(api: ApiHarness, name: string): Promise<string> {
  const workflow = {
    ...createNewWorkflow(name),
    nodes: [{ id: "in", type: "input", content: "" }, { id: "g1", type: "generation", provider: "offline", model: "echo" }, { id: "out", type: "output", content: "" }],
    edges: [{ id: "e1", source: "in", target: "g1" }, { id: "e2", source: "g1", target: "out" }],
  };
  return importWorkflow((query, variables) => api.request(query, variables), stringifyWorkflow(workflow));
}
