import { connect } from "node:net";
import weaviate, { type WeaviateClient } from "weaviate-client";
import { VectorStoreError } from "../vector-store/vector-store.errors.js";
import { isUnreachable } from "./weaviate-error.mapper.js";
import { quietRetryWarnings } from "./weaviate-retry-warnings.js";

export interface WeaviateConnectionOptions {
  /** HTTP endpoint, e.g. http://127.0.0.1:8080. */
  url: string;
  /** gRPC port (Weaviate's default 50051); the v3 client queries over gRPC. */
  grpcPort?: number;
  grpcHost?: string;
  apiKey?: string;
  /**
   * How long a search may take (default 10 s) once Weaviate accepted the connection. A refused
   * connection fails at once (see `use`); this bounds a server that accepts and does not answer.
   */
  searchTimeoutMs?: number;
}

/** How long a TCP connection to the gRPC port may take before Weaviate counts as unreachable. */
const PROBE_TIMEOUT_MS = 2_000;
/**
 * How long a search may run before it is raced by a probe of the gRPC port. A healthy search answers
 * well within this, so it costs no extra connection (a probe per search was half a cache lookup's time);
 * a search against a stopped server hangs in the client's retries and is failed by the probe.
 */
const PROBE_AFTER_MS = 50;

/**
 * One v3 client per store (knowledge-base chunks, semantic caches), opened on first use.
 *
 * Outages: the client retries a gRPC call on an unreachable server five times with backoff (about
 * 20 s), so on its own a search against a stopped Weaviate waits for the deadline. Instead every call
 * first checks that the gRPC port accepts connections when the connection is new or was found broken,
 * and a search that has not answered within 50 ms races such a check: a refused connection fails at
 * once, saying "unreachable". After
 * a failure the client is replaced once Weaviate accepts connections again, so the first call after an
 * outage does not inherit the old channel's backoff.
 */
export class WeaviateConnection {
  private clientPromise: Promise<WeaviateClient> | undefined;
  private broken = false;
  private recovery: Promise<void> | undefined;
  readonly grpcAddress: string;

  constructor(private readonly options: WeaviateConnectionOptions) {
    quietRetryWarnings();
    const url = new URL(options.url);
    this.grpcAddress = `${options.grpcHost ?? url.hostname}:${options.grpcPort ?? 50051}`;
  }

  /** Runs one operation on the client; marks the connection broken when Weaviate turns out unreachable. */
  async use<T>(body: (client: WeaviateClient) => Promise<T>): Promise<T> {
    try {
      return await body(await this.client());
    } catch (error) {
      if (isUnreachable(error)) this.broken = true;
      throw error;
    }
  }

  client(): Promise<WeaviateClient> {
    if (this.broken) {
      // Not reachable yet: fail now. Reachable again: start over with a fresh channel (once, for every caller).
      this.recovery ??= this.probe()
        .then(async () => {
          await this.close();
          this.broken = false;
        })
        .finally(() => {
          this.recovery = undefined;
        });
      return this.recovery.then(() => this.client());
    }
    if (!this.clientPromise) {
      const pending = this.probe().then(() => this.connectClient());
      pending.catch(() => {
        if (this.clientPromise === pending) this.clientPromise = undefined;
      });
      this.clientPromise = pending;
    }
    return this.clientPromise;
  }

  /** Resolves when the gRPC port accepts a TCP connection; rejects at once when it is refused. */
  probe(): Promise<void> {
    const [host, port] = splitAddress(this.grpcAddress);
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port, timeout: PROBE_TIMEOUT_MS });
      const fail = (reason: string) => {
        socket.destroy();
        this.broken = true;
        const message = `Weaviate at ${this.options.url} is unreachable: its gRPC port ${this.grpcAddress} does not accept connections (${reason}).`;
        reject(new VectorStoreError("VECTOR_STORE_UNAVAILABLE", message, { store: "weaviate" }));
      };
      socket.once("connect", () => {
        socket.destroy();
        resolve();
      });
      socket.once("timeout", () => fail(`no connection within ${PROBE_TIMEOUT_MS} ms`));
      socket.once("error", (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
    });
  }

  async close(): Promise<void> {
    const pending = this.clientPromise;
    this.clientPromise = undefined;
    if (pending) await (await pending.catch(() => undefined))?.close();
  }

  /**
   * Settles with `work`, or rejects when the gRPC port refuses connections (checked once the search has
   * run for PROBE_AFTER_MS), when the search deadline passes, or when the caller cancels; `work` is
   * left to finish.
   */
  withDeadline<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    const timeoutMs = this.options.searchTimeoutMs ?? 10_000;
    work.catch(() => undefined);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new VectorStoreError("VECTOR_STORE_UNAVAILABLE", `Weaviate at ${this.options.url} did not answer a search within ${timeoutMs} ms.`, { store: "weaviate" })),
        timeoutMs,
      );
      const onAbort = () => reject(signal?.reason instanceof Error ? signal.reason : new DOMException("The operation was aborted.", "AbortError"));
      signal?.addEventListener("abort", onAbort, { once: true });
      const probe = setTimeout(() => this.probe().catch(reject), PROBE_AFTER_MS);
      work.then(resolve, reject).finally(() => {
        clearTimeout(timer);
        clearTimeout(probe);
        signal?.removeEventListener("abort", onAbort);
      });
    });
  }

  private connectClient(): Promise<WeaviateClient> {
    const url = new URL(this.options.url);
    const secure = url.protocol === "https:";
    const [grpcHost, grpcPort] = splitAddress(this.grpcAddress);
    return weaviate.connectToCustom({
      httpHost: url.hostname,
      httpPort: Number(url.port || (secure ? 443 : 80)),
      httpSecure: secure,
      ...(url.pathname !== "/" ? { httpPath: url.pathname } : {}),
      grpcHost,
      grpcPort,
      grpcSecure: secure,
      ...(this.options.apiKey ? { authCredentials: new weaviate.ApiKey(this.options.apiKey) } : {}),
    });
  }
}

function splitAddress(address: string): [string, number] {
  const colon = address.lastIndexOf(":");
  return [address.slice(0, colon).replace(/^\[|\]$/g, ""), Number(address.slice(colon + 1))];
}
