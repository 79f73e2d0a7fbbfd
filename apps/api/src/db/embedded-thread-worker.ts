import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";
import type { IsolationLevel, SqlDriverAdapter, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import { sendError, type Call, type Opened, type Reply, type WorkerOptions } from "./embedded-thread-protocol.js";
import { PGliteAdapterFactory } from "./pglite-adapter.js";
import { pgliteRawSql, type RawQueryable } from "./raw-sql.js";

/**
 * The embedded database's thread (see embedded-thread.ts): it owns the PGlite instance, the Prisma
 * driver adapters on it and its raw SQL handle, and answers the API thread's calls. Adapters and open
 * transactions are known to the API thread by handle.
 */
interface RawTransaction {
  queryable: RawQueryable;
  finish(commit: boolean): Promise<void>;
}

const ROLLED_BACK = Symbol("rolled back");

async function serve(port: NonNullable<typeof parentPort>, options: WorkerOptions): Promise<void> {
  let client: PGlite;
  try {
    const loadDataDir = options.restoreFrom ? new Blob([options.restoreFrom]) : undefined;
    client = await PGlite.create({ dataDir: options.dataDir, extensions: { vector }, loadDataDir });
  } catch (error) {
    port.postMessage({ opened: false, error: sendError(error) } satisfies Opened);
    return;
  }
  const factory = new PGliteAdapterFactory(client);
  const raw = pgliteRawSql(client);
  const adapters = new Map<number, SqlDriverAdapter>();
  const transactions = new Map<number, Transaction>();
  const rawTransactions = new Map<number, RawTransaction>();
  let nextHandle = 1;
  const keep = <T>(map: Map<number, T>, value: T): number => {
    const handle = nextHandle++;
    map.set(handle, value);
    return handle;
  };
  const take = <T>(map: Map<number, T>, handle: number): T => {
    const value = map.get(handle);
    if (value === undefined) throw new Error(`no open handle ${handle} on the embedded database's thread`);
    return value;
  };
  /** The handle's object, forgotten: the transaction ended or the adapter was disposed. */
  const release = <T>(map: Map<number, T>, handle: number): T => {
    const value = take(map, handle);
    map.delete(handle);
    return value;
  };
  const queryable = (handle: number) => (handle === 0 ? raw : take(rawTransactions, handle).queryable);
  const prismaQueryable = (handle: number) => adapters.get(handle) ?? take(transactions, handle);

  const beginRaw = () =>
    new Promise<number>((begun, failed) => {
      const transaction = raw.transaction(
        (tx) =>
          new Promise<void>((commit, rollBack) => {
            const handle = keep(rawTransactions, {
              queryable: tx,
              finish: async (shouldCommit) => {
                if (shouldCommit) commit();
                else rollBack(ROLLED_BACK);
                await settled;
              },
            });
            begun(handle);
          }),
      );
      // BEGIN failing rejects the call; after that, a failed COMMIT is the answer to raw.end.
      transaction.catch(failed);
      const settled = transaction.catch((error: unknown) => {
        if (error !== ROLLED_BACK) throw error;
      });
      settled.catch(() => undefined);
    });

  const operations: Record<Call["operation"], (handle: number, args: unknown[]) => Promise<unknown>> = {
    "prisma.connect": async () => {
      const adapter = await factory.connect();
      return { handle: keep(adapters, adapter), connectionInfo: adapter.getConnectionInfo?.() };
    },
    "prisma.queryRaw": (handle, [query]) => prismaQueryable(handle).queryRaw(query as SqlQuery),
    "prisma.executeRaw": (handle, [query]) => prismaQueryable(handle).executeRaw(query as SqlQuery),
    "prisma.executeScript": (handle, [script]) => take(adapters, handle).executeScript(script as string),
    "prisma.startTransaction": async (handle, [isolationLevel]) => {
      const transaction = await take(adapters, handle).startTransaction(isolationLevel as IsolationLevel | undefined);
      return { handle: keep(transactions, transaction), options: transaction.options };
    },
    "prisma.commit": (handle) => release(transactions, handle).commit(),
    "prisma.rollback": (handle) => release(transactions, handle).rollback(),
    "prisma.dispose": (handle) => release(adapters, handle).dispose(),
    "raw.query": (handle, [sql, params]) => queryable(handle).query(sql as string, params as unknown[]),
    "raw.exec": (handle, [sql]) => queryable(handle).exec(sql as string),
    "raw.script": (handle, [sql]) => queryable(handle).script(sql as string),
    "raw.begin": () => beginRaw(),
    "raw.end": (handle, [commit]) => release(rawTransactions, handle).finish(commit as boolean),
    dumpDataDir: async (_handle, [compression]) => {
      const dump = await client.dumpDataDir(compression as "none" | "gzip" | "auto" | undefined);
      return dump.arrayBuffer();
    },
  };

  port.on("message", (call: Call | "close") => {
    if (call === "close") {
      void client.close().finally(() => port.close());
      return;
    }
    void (async () => {
      let reply: Reply;
      try {
        reply = { id: call.id, ok: true, value: await operations[call.operation](call.handle, call.args) };
      } catch (error) {
        reply = { id: call.id, ok: false, error: sendError(error) };
      }
      try {
        port.postMessage(reply, reply.ok && reply.value instanceof ArrayBuffer ? [reply.value] : []);
      } catch (error) {
        // A value that cannot cross threads (a driver returning something unexpected) fails its call, not the thread.
        port.postMessage({ id: call.id, ok: false, error: sendError(error) } satisfies Reply);
      }
    })();
  });
  port.postMessage({ opened: true } satisfies Opened);
}

if (!parentPort) throw new Error("embedded-thread-worker.ts runs as a worker thread (see embedded-thread.ts)");
await serve(parentPort, workerData as WorkerOptions);
