import type { DocumentNode, GraphQLError, OperationDefinitionNode } from "graphql";

/** What a subscribe message asks for, as graphql-ws hands it over. */
export interface OperationPayload {
  query: string;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

/** An operation that parsed, validated and passed the limits. */
export interface PreparedOperation {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /**
   * The partition, text, operation name and variables in one string: two subscriptions with the same key
   * ask for the same thing (the limits were checked on exactly this). Null: not kept, shared with nobody.
   */
  key: string | null;
}

const DEFAULT_CAPACITY = 512;
/** Longer texts are prepared every time: a few large ones would crowd the common short ones out. */
const MAX_CACHED_TEXT = 16 * 1024;

/**
 * WebSocket operations parsed, validated and checked against the operation limits once per distinct
 * text, operation name and variables (the cost depends on the variables). Clients following runs send the
 * same few texts over and over: preparing one was a third of a subscribe's CPU when a thousand clients
 * subscribed at once. Only operations that passed are kept, the least recently used dropped past the
 * capacity, so a client sending junk costs itself the preparation and nobody else an entry.
 */
export class PreparedOperations {
  readonly #entries = new Map<string, PreparedOperation>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /**
   * The prepared operation, from the cache or from `prepare` (its errors are returned and not kept).
   * `partition` separates callers whose preparation may differ (with or without a key).
   */
  get(
    payload: OperationPayload,
    partition: string,
    prepare: (key: string | null) => PreparedOperation | readonly GraphQLError[],
  ): PreparedOperation | readonly GraphQLError[] {
    const key = keyOf(partition, payload);
    if (key === null) return prepare(null);
    const cached = this.#entries.get(key);
    if (cached) {
      this.#entries.delete(key);
      this.#entries.set(key, cached);
      return cached;
    }
    const prepared = prepare(key);
    if (Array.isArray(prepared) || key.length > MAX_CACHED_TEXT) return prepared;
    this.#entries.set(key, prepared as PreparedOperation);
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value!);
    return prepared;
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** Null when the variables cannot be written back as JSON (nested past the stack): such an operation is not shared. */
function keyOf(partition: string, payload: OperationPayload): string | null {
  try {
    return `${partition}\u0000${payload.operationName ?? ""}\u0000${JSON.stringify(payload.variables ?? null)}\u0000${payload.query}`;
  } catch {
    return null;
  }
}
