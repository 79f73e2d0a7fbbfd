import { WeftError } from "../model/errors.js";
import type { HttpClient, HttpRequest, HttpResponse, SecretText } from "../providers/http-client.js";

/** A request as the fake received it: secrets filled in, as a server would see it. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
}

export type FakeAnswer = Partial<HttpResponse>;

/**
 * An HTTP client for engine tests: each request is answered by a function of what was sent (no network).
 * Secrets come from a map (a missing one is SECRET_NOT_FOUND); every request is recorded with them filled
 * in, and an answer that repeats a secret gets `[secret]` in its place, as the real client does.
 */
export class FakeHttpClient implements HttpClient {
  readonly sent: SentRequest[] = [];

  constructor(
    private readonly answer: (request: SentRequest) => FakeAnswer | Promise<FakeAnswer>,
    private readonly secrets: Readonly<Record<string, string>> = {},
  ) {}

  async send(request: HttpRequest): Promise<HttpResponse> {
    const fill = (text: SecretText) => text.map((part) => (typeof part === "string" ? part : this.#secret(part.secret))).join("");
    const sent: SentRequest = {
      method: request.method,
      url: fill(request.url),
      headers: Object.fromEntries(request.headers.map(([name, value]) => [name.toLowerCase(), fill(value)])),
      body: request.body === null ? null : fill(request.body),
    };
    this.sent.push(sent);
    const answer = await this.answer(sent);
    let body = answer.body ?? "";
    for (const value of Object.values(this.secrets)) body = body.replaceAll(value, "[secret]");
    return { status: answer.status ?? 200, headers: answer.headers ?? {}, body };
  }

  #secret(name: string): string {
    const value = this.secrets[name];
    if (value === undefined) throw new WeftError("SECRET_NOT_FOUND", `no secret is named ${name}`, { audience: "operational" });
    return value;
  }
}
