import { Mistral } from "@mistralai/mistralai";
import { mapMistralError, type MistralCallContext } from "./mistral-error.mapper.js";

export interface MistralClientOptions {
  apiKey: string;
  /** Defaults to https://api.mistral.ai; tests point it at a local server. */
  serverURL?: string;
  /** Per-request limit; a request that takes longer fails with PROVIDER_TIMEOUT (retryable). */
  timeoutMs?: number;
}

export const DEFAULT_MISTRAL_SERVER_URL = "https://api.mistral.ai";
export const DEFAULT_MISTRAL_TIMEOUT_MS = 120_000;

/** A call's combined signal: the caller's cancellation plus our timeout, told apart when mapping errors. */
export interface MistralCall extends MistralCallContext {
  signal: AbortSignal;
  fail(error: unknown): Error;
}

/**
 * The SDK client shared by the LLM provider and the embedder. Its retries are off (`strategy: "none"`):
 * the engine's runner owns retrying, with backoff and `Retry-After`.
 */
export class MistralClient {
  readonly sdk: Mistral;
  readonly serverURL: string;
  readonly timeoutMs: number;

  constructor(options: MistralClientOptions) {
    this.serverURL = options.serverURL ?? DEFAULT_MISTRAL_SERVER_URL;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_MISTRAL_TIMEOUT_MS;
    this.sdk = new Mistral({ apiKey: options.apiKey, serverURL: this.serverURL, retryConfig: { strategy: "none" } });
  }

  call(operation: string, callerSignal: AbortSignal | undefined): MistralCall {
    const caller = callerSignal ?? new AbortController().signal;
    const timeoutSignal = AbortSignal.timeout(this.timeoutMs);
    const context: MistralCallContext = { operation, callerSignal: caller, timeoutSignal, timeoutMs: this.timeoutMs, serverURL: this.serverURL };
    return { ...context, signal: AbortSignal.any([caller, timeoutSignal]), fail: (error) => mapMistralError(error, context) };
  }
}
