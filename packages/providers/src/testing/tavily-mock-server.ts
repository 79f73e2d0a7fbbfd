import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readJson, sendJson as send } from "./json-http.js";

/**
 * A local HTTP server that speaks Tavily's search wire protocol (`POST /search` with a Bearer key,
 * JSON in and out, Tavily's `{"detail": {"error": …}}` error bodies). Tests point the Tavily provider
 * at it through `serverURL`. Behaviours are queued per test; with an empty queue it answers from a small
 * fixed result list, honouring `max_results`, `include_domains` and `exclude_domains`. Every request is
 * recorded. A test double for the remote API, never used outside tests.
 */

export interface TavilyMockResult {
  title: string;
  url: string;
  content: string;
  score: number;
}

export type TavilyBehaviour =
  | { kind: "results"; results: TavilyMockResult[] }
  | { kind: "error"; status: number; headers?: Record<string, string>; body?: unknown }
  /** A 200 whose body is not what Tavily sends. */
  | { kind: "raw"; status: number; body: string }
  /** Never answers (until the client gives up). */
  | { kind: "hang" };

export interface TavilyRecordedRequest {
  path: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}

export const TAVILY_MOCK_RESULTS: readonly TavilyMockResult[] = [
  { title: "Self-attention explained", url: "https://ml.example/attention", content: "Each token attends to every other token through queries, keys and values.", score: 0.91 },
  { title: "Hybrid search", url: "https://search.example/hybrid", content: "Keyword and vector scores fused with a weight alpha.", score: 0.84 },
  { title: "광주 전통시장", url: "https://gwangju.example/markets", content: "양동시장과 대인시장은 광주의 대표 시장이다.", score: 0.77 },
  { title: "Retry-After", url: "https://docs.search.example/retry-after", content: "Wait the number of seconds the server asks for.", score: 0.65 },
];

const ERROR_MESSAGES: Record<number, string> = {
  400: "Invalid request.",
  401: "Unauthorized: missing or invalid API key.",
  429: "Your request has been blocked due to excessive requests. Please reduce rate of requests.",
  432: "This request exceeds your plan's set usage limit.",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

function hostIn(url: string, domains: unknown): boolean {
  if (!Array.isArray(domains)) return false;
  const host = new URL(url).hostname;
  return domains.some((domain) => typeof domain === "string" && (host === domain || host.endsWith(`.${domain}`)));
}

export class TavilyMockServer {
  readonly requests: TavilyRecordedRequest[] = [];
  private readonly queue: TavilyBehaviour[] = [];
  private readonly server: Server;
  private readonly open = new Set<ServerResponse>();
  private port = 0;

  private constructor(private readonly apiKey: string) {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  static async start(options: { apiKey?: string } = {}): Promise<TavilyMockServer> {
    const mock = new TavilyMockServer(options.apiKey ?? "tvly-test-key");
    await new Promise<void>((resolve) => mock.server.listen(0, "127.0.0.1", resolve));
    mock.port = (mock.server.address() as AddressInfo).port;
    return mock;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  enqueue(...behaviours: TavilyBehaviour[]): this {
    this.queue.push(...behaviours);
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.open) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.open.add(res);
    res.on("close", () => this.open.delete(res));
    const body = await readJson(req);
    const path = (req.url ?? "").split("?")[0] ?? "";
    this.requests.push({ path, headers: req.headers, body });
    if (req.method !== "POST" || path !== "/search") return send(res, 404, { detail: { error: "Not Found" } });
    if (req.headers.authorization !== `Bearer ${this.apiKey}`) return send(res, 401, { detail: { error: ERROR_MESSAGES[401] } });
    if (typeof body.query !== "string" || body.query === "") return send(res, 400, { detail: { error: "Query is missing." } });
    const behaviour = this.queue.shift() ?? { kind: "results", results: [...TAVILY_MOCK_RESULTS] };
    if (behaviour.kind === "hang") return;
    if (behaviour.kind === "raw") {
      res.writeHead(behaviour.status, { "content-type": "application/json" }).end(behaviour.body);
      return;
    }
    if (behaviour.kind === "error") {
      send(res, behaviour.status, behaviour.body ?? { detail: { error: ERROR_MESSAGES[behaviour.status] ?? `Error ${behaviour.status}` } }, behaviour.headers);
      return;
    }
    send(res, 200, this.answer(body, behaviour.results));
  }

  private answer(body: Record<string, unknown>, results: TavilyMockResult[]): Record<string, unknown> {
    const max = typeof body.max_results === "number" ? body.max_results : 5;
    const kept = results
      .filter((result) => body.include_domains === undefined || hostIn(result.url, body.include_domains))
      .filter((result) => !hostIn(result.url, body.exclude_domains))
      .slice(0, max);
    return { query: body.query, follow_up_questions: null, answer: null, images: [], results: kept.map((result) => ({ ...result, raw_content: null })), response_time: 0.42, request_id: `mock-${this.requests.length}` };
  }
}
