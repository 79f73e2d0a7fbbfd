import { WeftError } from "@weft/engine";
import { VectorStoreError } from "../vector-store/vector-store.errors.js";

/**
 * The v3 client does not export its error classes, so they are recognised by name and message.
 * Connection problems become VECTOR_STORE_UNAVAILABLE (the node fails with "store is down"), a missing
 * class VECTOR_COLLECTION_NOT_FOUND, everything else VECTOR_STORE_ERROR with Weaviate's message.
 */

const UNAVAILABLE = /ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENOTFOUND|fetch failed|UNAVAILABLE|connection refused|socket hang up|Weaviate makes use of a high-speed gRPC API/i;
const NOT_FOUND = /could not find class|class .* not found|collection .* not found|no such class/i;

/** Whether an error (raw from the client, or already mapped) means Weaviate could not be reached. */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof WeftError) return error.code === "VECTOR_STORE_UNAVAILABLE";
  if (!(error instanceof Error)) return false;
  const causeMessage = error.cause instanceof Error ? ` ${error.cause.message}` : "";
  return error.name === "WeaviateStartUpError" || error.name === "WeaviateGRPCUnavailableError" || UNAVAILABLE.test(error.message + causeMessage);
}

export function mapWeaviateError(error: unknown, context: { store: string; operation: string; url: string }): Error {
  if (error instanceof WeftError) return error;
  if (error instanceof Error && error.name === "AbortError") return error;
  const message = error instanceof Error ? error.message : String(error);
  if (isUnreachable(error)) {
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

/** The first line, without the empty "Resolution note:" gRPC errors end with. */
function firstLine(text: string): string {
  return (text.split("\n")[0] ?? "").replace(/\s*Resolution note:\s*$/, "").slice(0, 300);
}
