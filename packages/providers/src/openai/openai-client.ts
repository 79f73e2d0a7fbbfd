import OpenAI from "openai";
import { SecretRedactor } from "../http/secret-redactor.js";
import { mapOpenAiError, type OpenAiCallContext } from "./openai-error.mapper.js";

export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";
export const DEFAULT_OPENAI_TIMEOUT_MS = 120_000;

/**
 * The key of an endpoint: text, a function that reads it at each call (a stored secret, which may
 * change while the server runs), or null for servers that take none (a local Ollama).
 */
export type ApiKeySource = string | null | (() => Promise<string | null>);

export interface OpenAiClientOptions {
  /** The provider's id (`openai`, or a name from WEFT_PROVIDERS_FILE); errors and models are filed under it. */
  id?: string;
  /** How errors name the endpoint ("OpenAI", "ollama"). */
  label?: string;
  /** With `/v1`, as the SDK takes it: https://api.openai.com/v1, http://127.0.0.1:11434/v1 (Ollama). */
  baseURL?: string;
  apiKey: ApiKeySource;
  /** The setting a user fixes when the key is refused (OPENAI_API_KEY, or the providers file's entry). */
  keySetting?: string;
  /** Per-request limit (a whole streamed reply included); longer fails with PROVIDER_TIMEOUT (retryable). */
  timeoutMs?: number;
}

/** A call's combined signal (the caller's cancellation plus our timeout, told apart when mapping errors) and its headers. */
export interface OpenAiCall extends OpenAiCallContext {
  signal: AbortSignal;
  headers: Record<string, string | null>;
  fail(error: unknown): Error;
}

/**
 * The official `openai` SDK client shared by the chat provider and the embedder. Its retries are off
 * (the engine's runner retries, honouring Retry-After); nothing is read from the environment (env.ts
 * does that): the key is sent per request, so a key kept as a secret can change without a restart.
 */
export class OpenAiClient {
  readonly sdk: OpenAI;
  readonly id: string;
  readonly label: string;
  readonly baseURL: string;
  readonly timeoutMs: number;
  readonly #apiKey: ApiKeySource;
  readonly #keySetting: string;

  constructor(options: OpenAiClientOptions) {
    this.id = options.id ?? "openai";
    this.label = options.label ?? "OpenAI";
    this.baseURL = options.baseURL ?? DEFAULT_OPENAI_BASE_URL;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_OPENAI_TIMEOUT_MS;
    this.#apiKey = options.apiKey;
    this.#keySetting = options.keySetting ?? "OPENAI_API_KEY";
    this.sdk = new OpenAI({
      // A placeholder the per-request Authorization header replaces (or removes, for servers without keys).
      apiKey: "weft-sends-the-key-per-request",
      baseURL: this.baseURL,
      maxRetries: 0,
      timeout: this.timeoutMs,
      organization: null,
      project: null,
      adminAPIKey: null,
      webhookSecret: null,
    });
  }

  async call(operation: string, callerSignal: AbortSignal | undefined): Promise<OpenAiCall> {
    const caller = callerSignal ?? new AbortController().signal;
    const timeoutSignal = AbortSignal.timeout(this.timeoutMs);
    const context: OpenAiCallContext = { operation, callerSignal: caller, timeoutSignal, timeoutMs: this.timeoutMs, baseURL: this.baseURL, label: this.label, keySetting: this.#keySetting };
    const key = typeof this.#apiKey === "function" ? await this.#apiKey() : this.#apiKey;
    return {
      ...context,
      signal: AbortSignal.any([caller, timeoutSignal]),
      headers: { Authorization: key ? `Bearer ${key}` : null },
      fail: (error) => withoutKey(mapOpenAiError(error, context), key),
    };
  }
}

/**
 * A server's error message may repeat the key it was sent ("Incorrect API key provided: sk-…"); it
 * becomes an event, a node run and a log line, so the key (and its URL-encoded form) is replaced by
 * `[secret]` (docs/secrets.md). The SDK's error it wraps (its cause, which loggers print too) keeps the
 * server's whole answer: only its name and its message, cleaned the same way, are kept.
 */
export function withoutKey(error: Error, key: string | null): Error {
  const redactor = new SecretRedactor();
  if (key) redactor.add(key);
  return redactor.error(error);
}
