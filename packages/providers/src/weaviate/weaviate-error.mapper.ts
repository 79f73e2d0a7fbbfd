import { WeftError } from "@weft/engine";
import { VectorStoreError } from "../vector-store/vector-store.errors.js";

/**
 * The v3 client does not export its error classes, so they are recognised by name and message.
 * Connection problems become VECTOR_STORE_UNAVAILABLE (the node fails with "store is down"), a missing
 * class VECTOR_COLLECTION_NOT_FOUND, everything else VECTOR_STORE_ERROR with Weaviate's message.
 */

const UNAVAILABLE = /ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENOTFOUND|fetch failed|UNAVAILABLE|connection refused|socket hang up|Weaviate makes use of a high-speed gRPC API/i;
const NOT_FOUND = /could not find class|class .* not found|collection .* not found|no such class/i;

export function mapWeaviateError(error: unknown, context: { store: string; operation: string; url: string }): Error {
  if (error instanceof WeftError) return error;
  if (error instanceof Error && error.name === "AbortError") return error;
  const name = error instanceof Error ? error.name : "";
  const message = error instanceof Error ? error.message : String(error);
  const causeMessage = error instanceof Error && error.cause instanceof Error ? ` ${error.cause.message}` : "";
  if (name === "WeaviateStartUpError" || name === "WeaviateGRPCUnavailableError" || UNAVAILABLE.test(message + causeMessage)) {
    return new VectorStoreError("VECTOR_STORE_UNAVAILABLE", `Weaviate at ${context.url} is unreachable (${context.operation}): ${firstLine(message)}`, {
      store: context.store,
      cause: error,
    });
  }
  if (NOT_FOUND.test(message)) {
    return new VectorStoreError("VECTOR_COLLECTION_NOT_FOUND", `Weaviate has no such collection (${context.operation}): ${firstLine(message)}`, {
      store: context.store,
      cause: error,
    });
  }
  return new VectorStoreError("VECTOR_STORE_ERROR", `Weaviate failed during ${context.operation}: ${firstLine(message)}`, { store: context.store, cause: error });
}

function firstLine(text: string): string {
  return (text.split("\n")[0] ?? "").slice(0, 300);
}
