import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { LocalEmbedder } from "../embedding/local-embedder.js";
import { readJson, sendJson } from "./json-http.js";

/**
 * A local HTTP server that speaks the chat-completions wire protocol OpenAI defined and Mistral follows,
 * for the endpoints Weft uses: POST /v1/chat/completions (JSON, or server-sent events when `stream:
 * true`, tool calls included) and POST /v1/embeddings. The dialect gives each vendor's error bodies and
 * how it streams tool calls. Each endpoint has a queue of scripted behaviours; when a queue is empty a
 * default answer is given. Every request is recorded. A test double for remote APIs, never used outside tests.
 */

export interface MockUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface MockToolCall {
  id: string;
  name: string;
  /** The arguments' JSON text as the model would write it (invalid JSON allowed, for tests). */
  arguments: string;
}

export type ChatBehaviour =
  | {
      kind: "reply";
      text: string;
      usage?: MockUsage;
      /** Tool calls the "model" asks for; the finish reason is then `tool_calls`. */
      toolCalls?: MockToolCall[];
      /** Another finish reason (`length`, `content_filter`). */
      finishReason?: string;
      /** For streamed requests: the pieces sent as separate SSE events (default: split at spaces). */
      tokens?: string[];
      /** For streamed requests: send this many tokens, then hold the connection open without finishing. */
      stallAfterTokens?: number;
    }
  | MockErrorBehaviour
  /** Anything at all with this status (a malformed reply): `body` as it is, JSON content type unless said. */
  | { kind: "raw"; status: number; body: string; contentType?: string }
  /** A stream of these `data:` payloads as they are (malformed chunks, a stream cut short), then the end. */
  | { kind: "rawStream"; events: string[] }
  | { kind: "hang" };

export type EmbeddingsBehaviour = { kind: "vectors"; dimension?: number } | MockErrorBehaviour | { kind: "hang" };

export interface MockErrorBehaviour {
  kind: "error";
  status: number;
  /** Defaults to the dialect's error shape for the status. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}

/** What differs between the vendors that speak this protocol. */
export interface ChatDialect {
  /** The JSON body sent with an error status. */
  errorBody(status: number): unknown;
  /** OpenAI streams a call's arguments in pieces after its id and name; Mistral sends each call whole. */
  toolCallsInPieces: boolean;
  defaultModel: string;
  embeddingModel: string;
  embeddingDimension: number;
}

export interface ChatMockServerOptions {
  /** When set, requests without `Authorization: Bearer <apiKey>` get the dialect's 401. */
  apiKey?: string;
}

export class ChatCompletionsMockServer {
  readonly requests: RecordedRequest[] = [];
  /** Stalled streams whose connection the client closed: how a test sees that cancellation reached the wire. */
  closedStalledStreams = 0;
  private readonly chatQueue: ChatBehaviour[] = [];
  private readonly embeddingsQueue: EmbeddingsBehaviour[] = [];
  private readonly server: Server;
  private readonly openResponses = new Set<ServerResponse>();
  private port = 0;

  protected constructor(
    private readonly dialect: ChatDialect,
    private readonly options: ChatMockServerOptions = {},
  ) {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  protected async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** The server's root; the protocol's paths are under `/v1`. */
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
      this.sendError(res, { kind: "error", status: 401 });
      return;
    }
    if (req.method === "POST" && path === "/v1/chat/completions") {
      this.chat(body, this.chatQueue.shift() ?? { kind: "reply", text: "ok" }, res);
    } else if (req.method === "POST" && path === "/v1/embeddings") {
      this.embeddings(body, this.embeddingsQueue.shift() ?? { kind: "vectors" }, res);
    } else {
      this.sendError(res, { kind: "error", status: 404, body: { detail: "Not Found" } });
    }
  }

  private chat(body: Record<string, unknown>, behaviour: ChatBehaviour, res: ServerResponse): void {
    if (behaviour.kind === "hang") return;
    if (behaviour.kind === "error") return this.sendError(res, behaviour);
    if (behaviour.kind === "raw") {
      res.writeHead(behaviour.status, { "content-type": behaviour.contentType ?? "application/json" });
      res.end(behaviour.body);
      return;
    }
    if (behaviour.kind === "rawStream") {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      for (const event of behaviour.events) res.write(`data: ${event}\n\n`);
      res.end();
      return;
    }
    const model = typeof body.model === "string" ? body.model : this.dialect.defaultModel;
    const usage = behaviour.usage ?? { promptTokens: 10, completionTokens: behaviour.text.split(/\s+/).length };
    if (body.stream === true) {
      if (behaviour.stallAfterTokens !== undefined) res.on("close", () => this.closedStalledStreams++);
      streamChat(res, model, behaviour, usage, this.dialect.toolCallsInPieces);
      return;
    }
    const toolCalls = behaviour.toolCalls?.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } })) ?? null;
    sendJson(res, 200, {
      id: "cmpl-mock",
      object: "chat.completion",
      created: 1_700_000_000,
      model,
      choices: [{ index: 0, message: { role: "assistant", content: behaviour.text, tool_calls: toolCalls }, finish_reason: finishOf(behaviour) }],
      usage: usageJson(usage),
    });
  }

  private embeddings(body: Record<string, unknown>, behaviour: EmbeddingsBehaviour, res: ServerResponse): void {
    if (behaviour.kind === "hang") return;
    if (behaviour.kind === "error") return this.sendError(res, behaviour);
    const inputs = Array.isArray(body.input) ? body.input.map(String) : [String(body.input ?? "")];
    // Real-looking, deterministic vectors: the local embedder at the vendor's (or the request's) dimension.
    const requested = typeof body.dimensions === "number" ? body.dimensions : undefined;
    const embedder = new LocalEmbedder({ dimension: behaviour.dimension ?? requested ?? this.dialect.embeddingDimension });
    sendJson(res, 200, {
      id: "embd-mock",
      object: "list",
      model: typeof body.model === "string" ? body.model : this.dialect.embeddingModel,
      data: inputs.map((text, index) => ({ object: "embedding", index, embedding: embedder.embedOne(text) })),
      usage: { prompt_tokens: inputs.join(" ").split(/\s+/).length, total_tokens: inputs.join(" ").split(/\s+/).length },
    });
  }

  private sendError(res: ServerResponse, behaviour: MockErrorBehaviour): void {
    sendJson(res, behaviour.status, behaviour.body ?? this.dialect.errorBody(behaviour.status), behaviour.headers);
  }
}

type ReplyBehaviour = Extract<ChatBehaviour, { kind: "reply" }>;

function finishOf(behaviour: ReplyBehaviour): string {
  return behaviour.finishReason ?? (behaviour.toolCalls?.length ? "tool_calls" : "stop");
}

function usageJson(usage: MockUsage): Record<string, number> {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
}

function streamChat(res: ServerResponse, model: string, behaviour: ReplyBehaviour, usage: MockUsage, inPieces: boolean): void {
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
  for (const [index, call] of (behaviour.toolCalls ?? []).entries()) {
    for (const delta of toolCallDeltas(call, index, inPieces)) chunk({ tool_calls: [delta] }, null, false);
  }
  chunk({ content: "" }, finishOf(behaviour), true);
  res.end("data: [DONE]\n\n");
}

/** OpenAI: the id and name with empty arguments, then the arguments in three pieces. Mistral: the call whole. */
function toolCallDeltas(call: MockToolCall, index: number, inPieces: boolean): Record<string, unknown>[] {
  const head = { index, id: call.id, type: "function", function: { name: call.name, arguments: inPieces ? "" : call.arguments } };
  if (!inPieces) return [head];
  const size = Math.max(1, Math.ceil(call.arguments.length / 3));
  const pieces: Record<string, unknown>[] = [head];
  for (let start = 0; start < call.arguments.length; start += size) {
    pieces.push({ index, function: { arguments: call.arguments.slice(start, start + size) } });
  }
  return pieces;
}
