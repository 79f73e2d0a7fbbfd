import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { LocalEmbedder } from "@weft/providers";

/**
 * Mistral's embeddings endpoint (wire format of POST /v1/embeddings) with a gate: while closed, requests
 * wait; tests see each request arrive (an event, not a sleep) and decide when it is answered, or that
 * requests from the n-th on fail. Vectors are the local embedder's at Mistral's dimension (1024).
 */
export class GatedEmbeddingsServer {
  #open = true;
  #held: Array<() => void> = [];
  #arrivals = 0;
  #arrivalWaiters: Array<{ count: number; resolve: () => void }> = [];
  #failFrom = Number.POSITIVE_INFINITY;
  readonly #embedder = new LocalEmbedder({ dimension: 1024 });
  readonly #server: Server;

  private constructor() {
    this.#server = createServer((req, res) => void this.#handle(req, res));
  }

  static async start(): Promise<GatedEmbeddingsServer> {
    const server = new GatedEmbeddingsServer();
    await new Promise<void>((resolve) => server.#server.listen(0, "127.0.0.1", resolve));
    return server;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** Env for an app whose embedder is Mistral's, served here. */
  get env(): Record<"MISTRAL_API_KEY" | "MISTRAL_SERVER_URL" | "WEFT_EMBEDDER", string> {
    return { MISTRAL_API_KEY: "test-key", MISTRAL_SERVER_URL: this.url, WEFT_EMBEDDER: "mistral" };
  }

  close(): void {
    this.#open = false;
  }

  open(): void {
    this.#open = true;
    for (const release of this.#held.splice(0)) release();
  }

  /** Requests numbered `n` (1-based) and later get a 400. */
  failFrom(n: number): void {
    this.#failFrom = n;
  }

  /** Resolves once `count` requests have arrived since the server started. */
  arrived(count: number): Promise<void> {
    if (this.#arrivals >= count) return Promise.resolve();
    return new Promise((resolve) => this.#arrivalWaiters.push({ count, resolve }));
  }

  get arrivals(): number {
    return this.#arrivals;
  }

  async stop(): Promise<void> {
    this.open();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const number = ++this.#arrivals;
    for (const waiter of this.#arrivalWaiters.filter((each) => each.count <= number)) waiter.resolve();
    this.#arrivalWaiters = this.#arrivalWaiters.filter((each) => each.count > number);
    if (!this.#open) await new Promise<void>((resolve) => this.#held.push(resolve));
    if (res.destroyed) return;
    if (number >= this.#failFrom) {
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ object: "error", message: "embedding refused by the test server", type: "invalid_request_error", code: null }));
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { input?: unknown; model?: string };
    const inputs = Array.isArray(body.input) ? body.input.map(String) : [String(body.input ?? "")];
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id: "embd-gated",
        object: "list",
        model: body.model ?? "mistral-embed",
        data: inputs.map((text, index) => ({ object: "embedding", index, embedding: this.#embedder.embedOne(text) })),
        usage: { prompt_tokens: inputs.length, completion_tokens: 0, total_tokens: inputs.length },
      }),
    );
  }
}
