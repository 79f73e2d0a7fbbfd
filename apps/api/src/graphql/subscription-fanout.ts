import { createSourceEventStream, execute, subscribe, type ExecutionArgs, type ExecutionResult } from "graphql";
import type { Socket } from "node:net";
import type { WebSocket } from "ws";

/** Where one subscription's results go, and with whom it may share them. */
export interface SubscriptionDelivery {
  socket: WebSocket;
  /** The connection under the WebSocket (the upgraded request's socket), corked while a turn's messages gather. */
  connection: Pick<Socket, "cork" | "uncork">;
  /** The subscription's id on its connection (graphql-transport-ws). */
  id: string;
  /**
   * Subscriptions with the same key get the same result for the same event: the same operation text,
   * operation name and variables, asked with the same scopes. Null: never shared.
   */
  shareKey: string | null;
}

interface SharedResult {
  result: ExecutionResult;
  /** The result as JSON, written once for every subscription sharing it; null when it has errors. */
  json: string | null;
}

/**
 * Subscriptions that follow the same events share the work of answering them: an event's result is
 * executed and written as JSON once per process for each distinct operation and scopes (the share key),
 * and each subscription only wraps it in its own message (its id) and writes it to its socket. graphql-ws
 * would execute the selection set and serialise the result once per subscription: with a thousand
 * subscribers of one run, that was most of the API's CPU per event.
 *
 * Why sharing is sound: a result depends on the event (the root value), the operation and its variables,
 * and on the context only through authorisation, which reads the caller's scopes (auth-checker.ts). No
 * field of a subscription's result reads anything else of its context: a field that did (per key, per
 * connection) would have to make that part of the share key. Results with errors are not shared as text:
 * they go back to graphql-ws, which formats them for each subscription (its request id) in onNext.
 *
 * The event objects are the bus's (one per message and process: see pubsub.ts and the Redis bus) and a
 * replay's (shared by the subscriptions that read together: run-event-replay.ts); a result is kept only
 * as long as its event object lives (a WeakMap), so nothing here grows with time. Each subscription still
 * waits for its socket to take one message before it writes the next, as graphql-ws does.
 */
export class SubscriptionFanOut {
  readonly #deliveries = new WeakMap<object, SubscriptionDelivery>();
  readonly #results = new WeakMap<object, Map<string, Promise<SharedResult>>>();

  /** Says where the subscription whose GraphQL context is `context` delivers (before graphql-ws subscribes it). */
  register(context: object, delivery: SubscriptionDelivery): void {
    this.#deliveries.set(context, delivery);
  }

  /** graphql-ws's `subscribe`: graphql's own for an operation not registered here. */
  readonly subscribe = async (args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> => {
    const delivery = typeof args.contextValue === "object" && args.contextValue !== null ? this.#deliveries.get(args.contextValue) : undefined;
    if (!delivery) return subscribe(args);
    const stream = await createSourceEventStream(args);
    if (!isAsyncIterable(stream)) return stream;
    return new SharedResults(stream[Symbol.asyncIterator](), (event) => this.#resultFor(event, args, delivery.shareKey), delivery);
  };

  #resultFor(event: unknown, args: ExecutionArgs, shareKey: string | null): Promise<SharedResult> {
    if (shareKey === null || typeof event !== "object" || event === null) return executeOnce(event, args);
    let byKey = this.#results.get(event);
    if (!byKey) {
      byKey = new Map();
      this.#results.set(event, byKey);
    }
    let shared = byKey.get(shareKey);
    if (!shared) {
      shared = executeOnce(event, args);
      byKey.set(shareKey, shared);
    }
    return shared;
  }
}

async function executeOnce(event: unknown, args: ExecutionArgs): Promise<SharedResult> {
  const result = await execute({ ...args, rootValue: event });
  return { result, json: result.errors ? null : JSON.stringify(result) };
}

/**
 * One subscription's stream: results without errors are written straight to the socket as `next`
 * messages (their JSON shared); only results with errors are handed to graphql-ws, which formats and
 * sends them. Ends when the source ends or graphql-ws returns it (the client completed, or disconnected).
 */
class SharedResults implements AsyncIterableIterator<ExecutionResult> {
  #returned = false;
  readonly #prefix: string;

  constructor(
    private readonly source: AsyncIterator<unknown>,
    private readonly resultFor: (event: unknown) => Promise<SharedResult>,
    private readonly delivery: SubscriptionDelivery,
  ) {
    this.#prefix = `{"id":${JSON.stringify(delivery.id)},"type":"next","payload":`;
  }

  async next(): Promise<IteratorResult<ExecutionResult>> {
    for (;;) {
      const item = await this.source.next();
      if (item.done || this.#returned) return { value: undefined, done: true };
      const shared = await this.resultFor(item.value);
      if (shared.json === null) return { value: shared.result, done: false };
      await this.#send(`${this.#prefix}${shared.json}}`);
    }
  }

  async return(): Promise<IteratorResult<ExecutionResult>> {
    this.#returned = true;
    await this.source.return?.();
    return { value: undefined, done: true };
  }

  async throw(error: unknown): Promise<IteratorResult<ExecutionResult>> {
    await this.return();
    throw error;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<ExecutionResult> {
    return this;
  }

  /** As graphql-ws's own send (use/ws): resolves once the socket has taken the message; nothing once it is closed. */
  #send(message: string): Promise<void> {
    const { socket, connection } = this.delivery;
    return new Promise((resolve, reject) => {
      if (socket.readyState !== socket.OPEN) return resolve();
      corkForThisTurn(connection);
      socket.send(message, (error) => (error ? reject(error) : resolve()));
    });
  }
}

const corked = new WeakSet<object>();

/**
 * Holds a connection's writes until the promise jobs of this turn have run (process.nextTick runs after
 * them), so the messages of every subscription on it that one event reached leave in one write instead
 * of one system call each: a thousand subscriptions over fifty connections were otherwise a thousand
 * writes per event, over half of the process's time.
 */
function corkForThisTurn(connection: Pick<Socket, "cork" | "uncork">): void {
  if (corked.has(connection)) return;
  corked.add(connection);
  connection.cork();
  process.nextTick(() => {
    corked.delete(connection);
    connection.uncork();
  });
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof Object(value)[Symbol.asyncIterator] === "function";
}
