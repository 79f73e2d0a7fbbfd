import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { GraphQLError, GraphQLInt, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, parse, type ExecutionArgs } from "graphql";
import { createClient, type Client } from "graphql-ws";
import { useServer } from "graphql-ws/use/ws";
import { afterEach, expect, test } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { AsyncQueue } from "../modules/common/async-queue.js";
import { SubscriptionFanOut } from "./subscription-fanout.js";

/**
 * A schema with one subscription fed by a shared source, and a real graphql-ws server on loopback using
 * SubscriptionFanOut as the API does (ws-server.ts): the share key is what the client sends in its
 * connection parameters, standing for the operation and scopes the API puts in it.
 */
interface Tick {
  n: number;
  fail?: boolean;
}

let executions = 0;
const sources: AsyncQueue<Tick>[] = [];

const TickType = new GraphQLObjectType<Tick>({
  name: "Tick",
  fields: {
    n: { type: new GraphQLNonNull(GraphQLInt) },
    label: {
      type: GraphQLString,
      args: { prefix: { type: GraphQLString } },
      resolve: (tick, args: { prefix?: string | null }) => {
        executions += 1;
        if (tick.fail) throw new GraphQLError("this tick fails");
        return `${args.prefix ?? ""}${tick.n}`;
      },
    },
  },
});

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({ name: "Query", fields: { ok: { type: GraphQLInt, resolve: () => 1 } } }),
  subscription: new GraphQLObjectType({
    name: "Subscription",
    fields: {
      ticks: {
        type: TickType,
        subscribe: () => {
          const source = new AsyncQueue<Tick>();
          sources.push(source);
          return source;
        },
        resolve: (tick: Tick) => tick,
      },
    },
  }),
});

const servers: { http: Server; close(): Promise<void> }[] = [];
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.dispose()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
  sources.length = 0;
  executions = 0;
});

async function startServer(): Promise<string> {
  const http = createServer();
  const wss = new WebSocketServer({ server: http, path: "/graphql" });
  const fanOut = new SubscriptionFanOut();
  const disposable = useServer<Record<string, unknown> | undefined, { socket: WebSocket; request: IncomingMessage }>(
    {
      schema,
      subscribe: fanOut.subscribe,
      onSubscribe: (ctx, id, payload) => {
        const contextValue = { requestId: id };
        const shareKey = ctx.connectionParams?.["share"];
        fanOut.register(contextValue, { socket: ctx.extra.socket, connection: ctx.extra.request.socket, id, shareKey: typeof shareKey === "string" ? shareKey : null });
        return { schema, document: parse(payload.query), variableValues: payload.variables ?? undefined, contextValue } satisfies ExecutionArgs;
      },
    },
    wss,
  );
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  servers.push({
    http,
    close: async () => {
      await disposable.dispose();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  });
  return `ws://127.0.0.1:${(http.address() as AddressInfo).port}/graphql`;
}

function connect(url: string, share: string | null): Client {
  const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: share === null ? {} : { share } });
  clients.push(client);
  return client;
}

function follow(client: Client, query: string): { results: unknown[]; ended: Promise<void> } {
  const results: unknown[] = [];
  const ended = new Promise<void>((resolve, reject) =>
    client.subscribe({ query }, { next: (result) => results.push(result), error: reject, complete: resolve }),
  );
  return { results, ended };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Pushes the same tick objects to every subscription's source, as the event bus does with one message. */
function publish(ticks: Tick[]): void {
  for (const source of sources) {
    for (const tick of ticks) source.push(tick);
    source.end();
  }
}

test("subscriptions with the same share key execute each event once; another key or no key executes its own", async () => {
  const url = await startServer();
  const shared = [connect(url, "a"), connect(url, "a"), connect(url, "a")];
  const streams = [
    ...shared.map((client) => follow(client, `subscription { ticks { n label } }`)),
    follow(connect(url, "b"), `subscription { ticks { n label } }`),
    follow(connect(url, null), `subscription { ticks { n label } }`),
  ];
  await until(() => sources.length === 5);
  publish([{ n: 1 }, { n: 2 }, { n: 3 }]);
  await Promise.all(streams.map((stream) => stream.ended));

  const expected = [1, 2, 3].map((n) => ({ data: { ticks: { n, label: String(n) } } }));
  for (const stream of streams) expect(stream.results).toEqual(expected);
  // Three events: once for key "a" (three subscriptions), once for "b", once for the unshared one.
  expect(executions).toBe(9);
});

test("a result with errors reaches each subscription through graphql-ws, errors included, and the stream goes on", async () => {
  const url = await startServer();
  const streams = [connect(url, "a"), connect(url, "a")].map((client) => follow(client, `subscription { ticks { n label } }`));
  await until(() => sources.length === 2);
  publish([{ n: 1 }, { n: 2, fail: true }, { n: 3 }]);
  await Promise.all(streams.map((stream) => stream.ended));

  for (const stream of streams) {
    expect(stream.results).toEqual([
      { data: { ticks: { n: 1, label: "1" } } },
      { data: { ticks: { n: 2, label: null } }, errors: [expect.objectContaining({ message: "this tick fails", path: ["ticks", "label"] })] },
      { data: { ticks: { n: 3, label: "3" } } },
    ]);
  }
  expect(executions).toBe(3);
});

test("a subscription that completes stops receiving while the others on its connection go on", async () => {
  const url = await startServer();
  const client = connect(url, "a");
  const kept = follow(client, `subscription { ticks { n } }`);
  const stopped: unknown[] = [];
  const stop = client.subscribe({ query: `subscription { ticks { n } }` }, { next: (result) => stopped.push(result), error: () => undefined, complete: () => undefined });
  await until(() => sources.length === 2);
  for (const source of sources) source.push({ n: 1 });
  await until(() => kept.results.length === 1 && stopped.length === 1);
  stop();
  await until(() => sources[1]!.closed);
  for (const source of sources) {
    source.push({ n: 2 });
    source.end();
  }
  await kept.ended;
  expect(kept.results).toEqual([{ data: { ticks: { n: 1 } } }, { data: { ticks: { n: 2 } } }]);
  expect(stopped).toEqual([{ data: { ticks: { n: 1 } } }]);
});
