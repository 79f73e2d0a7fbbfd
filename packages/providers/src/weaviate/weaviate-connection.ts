import weaviate, { type WeaviateClient } from "weaviate-client";
import { VectorStoreError } from "../vector-store/vector-store.errors.js";

export interface WeaviateConnectionOptions {
  /** HTTP endpoint, e.g. http://127.0.0.1:8080. */
  url: string;
  /** gRPC port (Weaviate's default 50051); the v3 client queries over gRPC. */
  grpcPort?: number;
  grpcHost?: string;
  apiKey?: string;
  /**
   * How long a search may take (default 10 s). The client retries an unreachable gRPC server five
   * times with backoff (about 20 s, not configurable); a node should fail sooner than that.
   */
  searchTimeoutMs?: number;
}

/**
 * One v3 client per store (knowledge-base chunks, semantic caches), opened on first use. A failed
 * connection is not kept: the next call tries again, as the server may be back.
 */
export class WeaviateConnection {
  private clientPromise: Promise<WeaviateClient> | undefined;

  constructor(private readonly options: WeaviateConnectionOptions) {}

  client(): Promise<WeaviateClient> {
    if (!this.clientPromise) {
      const url = new URL(this.options.url);
      const secure = url.protocol === "https:";
      const pending = weaviate.connectToCustom({
        httpHost: url.hostname,
        httpPort: Number(url.port || (secure ? 443 : 80)),
        httpSecure: secure,
        ...(url.pathname !== "/" ? { httpPath: url.pathname } : {}),
        grpcHost: this.options.grpcHost ?? url.hostname,
        grpcPort: this.options.grpcPort ?? 50051,
        grpcSecure: secure,
        ...(this.options.apiKey ? { authCredentials: new weaviate.ApiKey(this.options.apiKey) } : {}),
      });
      pending.catch(() => {
        if (this.clientPromise === pending) this.clientPromise = undefined;
      });
      this.clientPromise = pending;
    }
    return this.clientPromise;
  }

  async close(): Promise<void> {
    const pending = this.clientPromise;
    this.clientPromise = undefined;
    if (pending) await (await pending.catch(() => undefined))?.close();
  }

  /** Settles with `work`, or rejects when the search deadline passes or the caller cancels; `work` is left to finish. */
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
      work.then(resolve, reject).finally(() => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      });
    });
  }
}
