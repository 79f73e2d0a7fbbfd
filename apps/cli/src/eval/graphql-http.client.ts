import { ApiError } from "./api-error.js";

/**
 * Longest reply the command reads. Pages of results hold verdicts only, or a few rows in full
 * (failing-rows.reader.ts): rows' outputs are what could make a reply this large.
 */
const MAX_REPLY_BYTES = 16 * 1024 * 1024;

interface UserError {
  code: string;
  message: string;
  path?: string[] | null;
}

/**
 * GraphQL over HTTP with an API key (`Authorization: Bearer`), the way any third-party client calls the
 * API. Errors come back as ApiError with the API's stable code: transport failures, GraphQL errors
 * (`extensions.code`) and the `errors` list of mutation payloads alike.
 */
export class GraphqlHttpClient {
  constructor(
    readonly url: string,
    private readonly key: string | undefined,
  ) {}

  async request<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const response = await this.#post(query, variables);
    const text = await response.text();
    if (text.length > MAX_REPLY_BYTES) throw new ApiError("API_ERROR", `the API's reply is over ${MAX_REPLY_BYTES} bytes`);
    let body: { data?: T | null; errors?: { message: string; extensions?: { code?: string } }[] };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new ApiError("API_ERROR", `${this.url} answered HTTP ${response.status} with something that is not GraphQL: ${text.slice(0, 200)}`);
    }
    const first = body.errors?.[0];
    if (first) throw new ApiError(first.extensions?.code ?? "API_ERROR", first.message);
    if (!response.ok || !body.data) throw new ApiError("API_ERROR", `${this.url} answered HTTP ${response.status} without data`);
    return body.data;
  }

  /** A mutation whose payload (`data[field]`) lists user errors: any of them is thrown, all in the message. */
  async mutate<T extends { errors: UserError[] }>(query: string, variables: Record<string, unknown>, field: string): Promise<T> {
    const data = await this.request<Record<string, T>>(query, variables);
    const payload = data[field] as T;
    const [first] = payload.errors;
    if (first) {
      const message = payload.errors.map((error) => `${error.message}${error.path?.length ? ` (at ${error.path.join(".")})` : ""}`).join("; ");
      throw new ApiError(first.code, message, first.path ?? []);
    }
    return payload;
  }

  async #post(query: string, variables: Record<string, unknown>): Promise<Response> {
    try {
      return await fetch(this.url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(this.key ? { authorization: `Bearer ${this.key}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
      throw new ApiError("API_UNREACHABLE", `cannot reach ${this.url}: ${cause}`);
    }
  }
}
