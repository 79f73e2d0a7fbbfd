import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { LocalEmbedder } from "../embedding/local-embedder.js";
import { readJson, sendJson } from "./json-http.js";

/**
 * A local HTTP server that speaks Mistral's wire protocol for the two endpoints Weft uses:
 * POST /v1/chat/completions (JSON, or server-sent events when `stream: true`) and POST /v1/embeddings.
 * Tests drive the real `@mistralai/mistralai` SDK against it through `serverURL`. Each endpoint has a
 * queue of scripted behaviours; when the queue is empty a default answer is given. Every request is
 * recorded. It is a test double for the remote API, never used outside tests.
 */

export interface MockUsage {
  promptTokens: number;
  completionTokens: number;
}

export type ChatBehaviour =
  | {
      kind: "reply";
      text: string;
      usage?: MockUsage;
      /** For streamed requests: the pieces sent as separate SSE events (default: split at spaces). */
      tokens?: string[];
      /** For streamed requests: send this many tokens, then hold the connection open without finishing. */
      stallAfterTokens?: number;
    }
  | MockErrorBehaviour
  | { kind: "hang" };

export type EmbeddingsBehaviour = { kind: "vectors"; dimension?: number } | MockErrorBehaviour | { kind: "hang" };

export interface MockErrorBehaviour {
  kind: "error";
  status: number;
  /** Defaults to Mistral's error shape for the status. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}

export interface MistralMockServerOptions {
  /** When set, requests without `Authorization: Bearer <apiKey>` get Mistral's 401. */
  apiKey?: string;
}

const ERROR_TYPES: Record<number, { type: string; message: string }> = {
  400: { type: "invalid_request_error", message: "Invalid request" },
  401: { type: "unauthorized", message: "Unauthorized" },
  404: { type: "invalid_model", message: "Invalid model: unknown-model" },
  422: { type: "invalid_request_error", message: "Invalid request" },
  429: { type: "rate_limited", message: "Requests rate limit exceeded" },
  500: { type: "internal_server_error", message: "Internal server error" },
  503: { type: "service_unavailable", message: "Service unavailable" },
};

/** The JSON body Mistral's API sends with an error status. */
export function mistralErrorBody(status: number): unknown {
  if (status === 401) return { message: "Unauthorized", request_id: "mock-request" };
  if (status === 422) {
    return {
      object: "error",
      message: { detail: [{ type: "missing", loc: ["body", "model"], msg: "Field required", input: {} }] },
      type: "invalid_request_error",
      param: null,
      code: null,
    };
  }
  const known = ERROR_TYPES[status] ?? { type: "error", message: `Error ${status}` };
  return { object: "error", message: known.message, type: known.type, param: null, code: String(status) };
}

export class MistralMockServer {
  readonly requests: RecordedRequest[] = [];
  /** Stalled streams whose connection the client closed: how a test sees that cancellation reached the wire. */
  closedStalledStreams = 0;
  private readonly chatQueue: ChatBehaviour[] = [];
  private readonly embeddingsQueue: EmbeddingsBehaviour[] = [];
  private readonly server: Server;
  private readonly openResponses = new Set<ServerResponse>();
  private port = 0;

  constructor(private readonly options: MistralMockServerOptions = {}) {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  static async start(options: MistralMockServerOptions = {}): Promise<MistralMockServer> {
    const mock = new MistralMockServer(options);
    await new Promise<void>((resolve) => mock.server.listen(0, "127.0.0.1", resolve));
    mock.port = (mock.server.address() as AddressInfo).port;
    return mock;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  enqueueChat(...behaviours: ChatBehaviour[]): this {
    this.chatQueue.push(...behaviours);
    return this;
  }

  enqueueEmbeddings(...behaviours: EmbeddingsBehaviour[]): this {
    this.embeddingsQueue.push(...behaviours);
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.openResponses) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.openResponses.add(res);
    res.on("close", () => this.openResponses.delete(res));
    const body = await readJson(req);
    const path = (req.url ?? "").split("?")[0] ?? "";
    this.requests.push({ path, headers: req.headers, body });
    if (this.options.apiKey !== undefined && req.headers.authorization !== `Bearer ${this.options.apiKey}`) {
      sendError(res, { kind: "error", status: 401 });
      return;
    }
    if (req.method === "POST" && path === "/v1/chat/completions") {
      this.chat(body, this.chatQueue.shift() ?? { kind: "reply", text: "ok" }, res);
    } else if (req.method === "POST" && path === "/v1/embeddings") {
      this.embeddings(body, this.embeddingsQueue.shift() ?? { kind: "vectors" }, res);
    } else {
      sendError(res, { kind: "error", status: 404, body: { detail: "Not Found" } });
    }
  }

  private chat(body: Record<string, unknown>, behaviour: ChatBehaviour, res: ServerResponse): void {
    if (behaviour.kind === "hang") return;
    if (behaviour.kind === "error") return sendError(res, behaviour);
    const model = typeof body.model === "string" ? body.model : "mistral-small-latest";
    const usage = behaviour.usage ?? { promptTokens: 10, completionTokens: behaviour.text.split(/\s+/).length };
    if (body.stream === true) {
      if (behaviour.stallAfterTokens !== undefined) res.on("close", () => this.closedStalledStreams++);
      streamChat(res, model, behaviour, usage);
      return;
    }
    sendJson(res, 200, {
      id: "cmpl-mock",
      object: "chat.completion",
      created: 1_700_000_000,
      model,
      choices: [{ index: 0, message: { role: "assistant", content: behaviour.text, tool_calls: null }, finish_reason: "stop" }],
      usage: usageJson(usage),
    });
  }

  private embeddings(body: Record<string, unknown>, behaviour: EmbeddingsBehaviour, res: ServerResponse): void {
    if (behaviour.kind === "hang") return;
    if (behaviour.kind === "error") return sendError(res, behaviour);
    const inputs = Array.isArray(body.input) ? body.input.map(String) : [String(body.input ?? "")];
    // Real-looking, deterministic vectors: the local embedder at Mistral's dimension.
    const embedder = new LocalEmbedder({ dimension: behaviour.dimension ?? 1024 });
    sendJson(res, 200, {
      id: "embd-mock",
      object: "list",
      model: typeof body.model === "string" ? body.model : "mistral-embed",
      data: inputs.map((text, index) => ({ object: "embedding", index, embedding: embedder.embedOne(text) })),
      usage: usageJson({ promptTokens: inputs.join(" ").split(/\s+/).length, completionTokens: 0 }),
    });
  }
}

function usageJson(usage: MockUsage): Record<string, number> {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
}

function streamChat(res: ServerResponse, model: string, behaviour: Extract<ChatBehaviour, { kind: "reply" }>, usage: MockUsage): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const tokens = behaviour.tokens ?? behaviour.text.split(/(?<= )/);
  const chunk = (delta: Record<string, unknown>, finish: string | null, withUsage: boolean) => {
    const data = {
      id: "cmpl-mock",
      object: "chat.completion.chunk",
      created: 1_700_000_000,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...(withUsage ? { usage: usageJson(usage) } : {}),
    };
    res.write(`data: ${JSON.stringify(data)}\n\n`);
  };
  chunk({ role: "assistant", content: "" }, null, false);
  for (const [i, token] of tokens.entries()) {
    if (behaviour.stallAfterTokens !== undefined && i >= behaviour.stallAfterTokens) return;
    chunk({ content: token }, null, false);
  }
  chunk({ content: "" }, "stop", true);
  res.end("data: [DONE]\n\n");
}

function sendError(res: ServerResponse, behaviour: MockErrorBehaviour): void {
  sendJson(res, behaviour.status, behaviour.body ?? mistralErrorBody(behaviour.status), behaviour.headers);
}
